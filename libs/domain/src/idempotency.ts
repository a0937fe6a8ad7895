import { ConflictError, UnprocessableEntityError } from './errors.js';
import type { IdempotencyEvent, StoredResponse } from './events.js';
import { assertNever, type Decider } from './decider.js';

/** What a client sends to bind an Idempotency-Key, or to note how its write was answered. */
export type IdempotencyCommand =
  | { type: 'RecordRequest'; fingerprint: string; method: string; path: string; response: StoredResponse }
  | { type: 'MarkAccepted'; position: number };

export type IdempotencyState =
  | { status: 'unused' }
  | { status: 'recorded'; fingerprint: string; method: string; path: string; response: StoredResponse; acceptedAt: number | null };

/**
 * One stream per Idempotency-Key (docs/admin-api.md): the first request recorded under a key owns
 * it for good. Its answer is the one every exact retry gets; `MarkAccepted` notes that the write
 * was answered 202 (committed, not yet confirmed by the read model), so retries answer 202 too.
 */
export const idempotencyDecider: Decider<IdempotencyCommand, IdempotencyState, IdempotencyEvent> = {
  initialState: () => ({ status: 'unused' }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordRequest': {
        if (state.status !== 'unused') throw new ConflictError('This Idempotency-Key is already bound to a request');
        const { fingerprint, method, path, response } = command;
        return [{ type: 'IdempotentRequestRecorded', data: { fingerprint, method, path, response } }];
      }
      case 'MarkAccepted':
        if (state.status !== 'recorded' || state.acceptedAt !== null) return [];
        return [{ type: 'IdempotentResponseAccepted', data: { position: command.position } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'IdempotentRequestRecorded': {
        const { fingerprint, method, path, response } = event.data;
        return { status: 'recorded', fingerprint, method, path, response: { status: response.status, body: response.body ?? null }, acceptedAt: null };
      }
      case 'IdempotentResponseAccepted':
        return state.status === 'recorded' ? { ...state, acceptedAt: event.data.position } : state;
      default:
        return assertNever(event);
    }
  },
};

/** The answer an exact retry gets: the recorded response, and the position when it was a 202. */
export interface IdempotentReplay {
  readonly response: StoredResponse;
  readonly acceptedAt: number | null;
}

/**
 * Checks a request against its key's record: null when the key is unused, the replay when the
 * fingerprints match, UnprocessableEntityError (422) when the key belongs to another request.
 */
export const replayFor = (state: IdempotencyState, fingerprint: string): IdempotentReplay | null => {
  if (state.status === 'unused') return null;
  if (state.fingerprint !== fingerprint) throw new UnprocessableEntityError('Idempotency-Key was used with a different request');
  return { response: state.response, acceptedAt: state.acceptedAt };
};
