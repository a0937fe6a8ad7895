import { NotFoundError, ValidationError } from './errors.js';
import type { ApiKeyEvent, KeyType } from './events.js';
import { assertNever, type Decider } from './decider.js';

export type ApiKeyCommand =
  | {
      type: 'CreateApiKey';
      keyId: string;
      name: string;
      keyType: KeyType;
      keyHash: string;
      last4: string;
      allowedDomains: string[];
      rateLimit: number;
      /** The plan's maximum at the time of the command. */
      maxRateLimit: number;
    }
  | { type: 'UpdateApiKey'; keyId: string; name?: string; allowedDomains?: string[]; rateLimit?: number; maxRateLimit: number }
  | { type: 'DeleteApiKey'; keyId: string };

export type ApiKeyState =
  | { status: 'none' }
  | { status: 'active'; keyId: string; keyHash: string; name: string; allowedDomains: string[]; rateLimit: number }
  | { status: 'deleted' };

const checkRateLimit = (rateLimit: number, max: number): void => {
  if (rateLimit > max) throw new ValidationError(`rateLimit ${rateLimit} exceeds the plan's maximum of ${max} requests per window`);
};

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyState, ApiKeyEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateApiKey': {
        if (state.status !== 'none') throw new ValidationError(`Key id "${command.keyId}" is taken`);
        checkRateLimit(command.rateLimit, command.maxRateLimit);
        const { keyId, name, keyHash, last4, allowedDomains, rateLimit } = command;
        return [{ type: 'ApiKeyCreated', data: { keyId, name, type: command.keyType, keyHash, last4, allowedDomains, rateLimit } }];
      }
      case 'UpdateApiKey': {
        if (state.status !== 'active') throw new NotFoundError(`API key "${command.keyId}" not found`);
        const next = {
          keyId: command.keyId,
          name: command.name ?? state.name,
          allowedDomains: command.allowedDomains ?? state.allowedDomains,
          rateLimit: command.rateLimit ?? state.rateLimit,
        };
        if (command.rateLimit !== undefined) checkRateLimit(command.rateLimit, command.maxRateLimit);
        const unchanged =
          next.name === state.name &&
          next.rateLimit === state.rateLimit &&
          JSON.stringify(next.allowedDomains) === JSON.stringify(state.allowedDomains);
        return unchanged ? [] : [{ type: 'ApiKeyUpdated', data: next }];
      }
      case 'DeleteApiKey': {
        if (state.status !== 'active') throw new NotFoundError(`API key "${command.keyId}" not found`);
        return [{ type: 'ApiKeyDeleted', data: { keyId: command.keyId, keyHash: state.keyHash } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated': {
        const { keyId, keyHash, name, allowedDomains, rateLimit } = event.data;
        return { status: 'active', keyId, keyHash, name, allowedDomains, rateLimit };
      }
      case 'ApiKeyUpdated':
        return state.status === 'active' ? { ...state, ...event.data } : state;
      case 'ApiKeyDeleted':
        return { status: 'deleted' };
      default:
        return assertNever(event);
    }
  },
};
