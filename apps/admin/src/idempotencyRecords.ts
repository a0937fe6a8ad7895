import { ConcurrencyError, idempotencyDecider, replayFor, type IdempotentReplay, type StoredResponse } from '@pubstream/domain';
import type { Logger } from '@pubstream/observability';
import type { CommandHandler } from './commandHandler.js';
import { idempotencyStreamOf } from './idempotency.js';

/**
 * The records that bind Idempotency-Keys to requests, one stream per key in the event log
 * (docs/admin-api.md): the only store every admin node shares, and one that outlives restarts.
 */
export const createIdempotencyRecords = (deps: { commands: Pick<CommandHandler, 'load' | 'handle'>; logger: Pick<Logger, 'warn'> }) => ({
  /** The recorded answer for this request, null when the key is unused; 422 when it belongs to another request. */
  async replay(idempotencyKey: string, fingerprint: string): Promise<IdempotentReplay | null> {
    return replayFor(await deps.commands.load(idempotencyDecider, idempotencyStreamOf(idempotencyKey)), fingerprint);
  },

  async isBound(idempotencyKey: string): Promise<boolean> {
    return (await deps.commands.load(idempotencyDecider, idempotencyStreamOf(idempotencyKey))).status !== 'unused';
  },

  /**
   * Binds the key on its own, after the write (a streamed import, whose request is known only at
   * its end). When another request bound it first, returns that request's answer (or 422).
   */
  async record(idempotencyKey: string, request: { fingerprint: string; method: string; path: string; response: StoredResponse }): Promise<IdempotentReplay | null> {
    const streamName = idempotencyStreamOf(idempotencyKey);
    const outcome = await deps.commands.handle(idempotencyDecider, streamName, { type: 'RecordRequest', ...request }, { idempotencyKey });
    return outcome.replayed ? replayFor(outcome.state, request.fingerprint) : null;
  },

  /** Notes a 202 in the key's record, so that retries answer 202 too; best effort (the answer stands). */
  async markAccepted(idempotencyKey: string, position: number): Promise<void> {
    try {
      await deps.commands.handle(idempotencyDecider, idempotencyStreamOf(idempotencyKey), { type: 'MarkAccepted', position });
    } catch (error) {
      deps.logger.warn({ err: error, position }, 'could not note a 202 answer in its idempotency record; a retry will answer the committed status');
    }
  },

  /** True when `error` says another request bound the key between our check and our append. */
  isTaken: (error: unknown, idempotencyKey: string): boolean => error instanceof ConcurrencyError && error.streamName === idempotencyStreamOf(idempotencyKey),
});

export type IdempotencyRecords = ReturnType<typeof createIdempotencyRecords>;
