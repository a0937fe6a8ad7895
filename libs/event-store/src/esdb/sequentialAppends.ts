import type { AppendResult, StreamAppend, StreamAppendOutcome } from '../eventStore.js';
import { PartialAppendError } from '../partialAppendError.js';

/** One stream append, as the adapter makes it. */
export type AppendOne = (entry: StreamAppend) => Promise<AppendResult>;

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** appendToStreams without transactions: entry after entry, each succeeding or failing alone. */
export async function appendEachInTurn(appendOne: AppendOne, batch: readonly StreamAppend[]): Promise<StreamAppendOutcome[]> {
  const outcomes: StreamAppendOutcome[] = [];
  for (const entry of batch) {
    try {
      outcomes.push({ ok: true, result: await appendOne(entry) });
    } catch (error) {
      outcomes.push({ ok: false, error: asError(error) });
    }
  }
  return outcomes;
}

/**
 * appendAll without transactions (not atomic, see the port): entry after entry, stopping at the
 * first failure, which is thrown as is when nothing was written, else as a PartialAppendError
 * listing what was.
 */
export async function appendAllInTurn(appendOne: AppendOne, batch: readonly StreamAppend[]): Promise<AppendResult[]> {
  const written: AppendResult[] = [];
  for (const entry of batch) {
    try {
      written.push(await appendOne(entry));
    } catch (error) {
      throw written.length === 0 ? error : new PartialAppendError(written, error);
    }
  }
  return written;
}
