import { ServiceUnavailableError } from '@pubstream/domain';

/** SQLite gave up waiting for another connection's lock (after the busy timeout). */
export const isSqliteBusy = (error: unknown): boolean => /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown } | null)?.code ?? ''));

/**
 * Runs a call of the SQLite log; a lock that another process held past the busy timeout becomes
 * ServiceUnavailableError (503 with Retry-After): the transaction did not start, nothing was
 * written, and a retry will do (docs/event-store.md). Other errors pass unchanged.
 */
export const busyAsUnavailable =
  <A extends unknown[], R>(call: (...args: A) => R) =>
  (...args: A): R => {
    try {
      return call(...args);
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      throw new ServiceUnavailableError('The event log is busy (another process holds its lock); nothing was written, try again shortly', { cause: error });
    }
  };
