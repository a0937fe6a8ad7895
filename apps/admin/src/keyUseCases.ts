import { generateApiKey, hashApiKey, maskApiKey } from '@pubstream/access';
import { apiKeyDecider, NotFoundError, PLANS, streamNames, type KeyType, type ProjectState } from '@pubstream/domain';
import { echoInput } from '@pubstream/http';
import type { KeyRecord, KeyStore, KeyUsage, UsageStore } from '@pubstream/read-model';
import { parseAllowedDomains } from './allowedDomains.js';
import { beforeCommit } from './beforeCommit.js';
import { deterministicUuid } from './idempotency.js';
import { required } from './required.js';
import type { WriteCommand } from './writeCommand.js';
import type { WriteOptions, Written } from './writeOutcome.js';
import { keyViewOf, type KeyView } from './writeViews.js';

export interface KeyUseCaseDeps {
  readonly write: WriteCommand;
  readonly keys: Pick<KeyStore, 'getKey' | 'listKeys'>;
  readonly usage: Pick<UsageStore, 'getUsage'>;
  /** The plan bounds every key's rate limit and gives its default. */
  readonly currentPlan: () => Promise<ProjectState>;
  readonly newId: () => string;
}

export type NewKeyView = KeyView & { key: string | null };

export type KeyInput = { name: string; type: KeyType; allowedDomains: readonly string[] | string; rateLimit?: number };

/** A key record of the read model with its usage counters, as the admin shows it (masked). */
const keyRecordView = (record: KeyRecord, usage: KeyUsage | undefined): KeyView => ({
  keyId: record.keyId,
  name: record.name,
  type: record.type,
  maskedKey: maskApiKey(record.type, record.last4),
  allowedDomains: record.allowedDomains,
  rateLimit: record.rateLimit,
  createdAt: record.createdAt,
  lastUsedAt: usage?.lastUsedAt ?? null,
  requestCount: usage?.requestCount ?? 0,
});

/** API keys: listed from the key and usage stores, written through the decider; the raw key is shown once. */
export const createKeyUseCases = (deps: KeyUseCaseDeps) => {
  const { write, keys } = deps;
  const planLimits = async () => PLANS[(await deps.currentPlan()).plan];
  const usageOf = async (keyIds: readonly string[]): Promise<Map<string, KeyUsage>> =>
    new Map((keyIds.length === 0 ? [] : await deps.usage.getUsage(keyIds)).map((entry) => [entry.keyId, entry]));

  return {
    async listKeys(): Promise<KeyView[]> {
      const records = await keys.listKeys();
      const usage = await usageOf(records.map((record) => record.keyId));
      return records.map((record) => keyRecordView(record, usage.get(record.keyId))).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
    },

    async getKey(keyId: string): Promise<KeyView> {
      const record = await keys.getKey(keyId);
      if (!record) throw new NotFoundError(`API key "${echoInput(keyId)}" not found`);
      return keyRecordView(record, (await usageOf([keyId])).get(keyId));
    },

    /**
     * Creates a key and returns it in full, the only time it is ever shown. With an Idempotency-Key
     * the key id derives from it; a retry gets the recorded answer with `key: null`, because the
     * raw key was never stored (not even in the idempotency record).
     */
    async createKey(input: KeyInput, options: WriteOptions<NewKeyView> = {}): Promise<Written<NewKeyView>> {
      const allowedDomains = parseAllowedDomains(input.allowedDomains);
      const plan = await planLimits();
      const keyId = options.idempotencyKey === undefined ? deps.newId() : deterministicUuid('apikey', options.idempotencyKey);
      const key = generateApiKey(input.type);
      const rateLimit = input.rateLimit ?? plan.defaultRateLimit;
      const command = { type: 'CreateApiKey' as const, keyId, name: input.name, keyType: input.type, keyHash: hashApiKey(key), last4: key.slice(-4), allowedDomains, rateLimit, maxRateLimit: plan.maxRateLimit };
      const shown = (replayed: boolean) => (replayed ? null : key);
      return write(
        apiKeyDecider,
        streamNames.apiKey(keyId),
        command,
        options,
        (decided) => ({ value: { ...required(keyViewOf(decided.history, undefined), () => new NotFoundError(`API key "${keyId}" was deleted`)), key: shown(decided.replayed) }, created: true }),
        (result) => ({ ...result, value: { ...result.value, key: null } }),
      );
    },

    /** Usage counters are read before the write (503 when the read model is unreachable). */
    async updateKey(keyId: string, input: { name?: string; allowedDomains?: readonly string[] | string; rateLimit?: number }, options: WriteOptions<KeyView> = {}): Promise<Written<KeyView>> {
      const allowedDomains = input.allowedDomains === undefined ? undefined : parseAllowedDomains(input.allowedDomains);
      const plan = await planLimits();
      const usage = await beforeCommit('reading usage counters', () => usageOf([keyId]));
      const command = { type: 'UpdateApiKey' as const, keyId, name: input.name, allowedDomains, rateLimit: input.rateLimit, maxRateLimit: plan.maxRateLimit };
      return write(apiKeyDecider, streamNames.apiKey(keyId), command, options, (decided) => ({
        value: required(keyViewOf(decided.history, usage.get(keyId)), () => new NotFoundError(`API key "${keyId}" not found`)),
        created: false,
      }));
    },

    deleteKey(keyId: string, options: WriteOptions<null> = {}): Promise<Written<null>> {
      return write(apiKeyDecider, streamNames.apiKey(keyId), { type: 'DeleteApiKey', keyId }, options, () => ({ value: null, created: false }));
    },
  };
};
