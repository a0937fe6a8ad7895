import type { AppendResult } from './eventStore.js';

/**
 * `appendAll` on a store that cannot commit several streams at once (EventStoreDB) wrote the
 * first `written.length` entries of the batch, then failed on the next one with `cause`.
 */
export class PartialAppendError extends Error {
  readonly written: readonly AppendResult[];
  constructor(written: readonly AppendResult[], cause: unknown) {
    super(`Only ${written.length} entries of the batch were appended: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'PartialAppendError';
    this.written = written;
  }
}
