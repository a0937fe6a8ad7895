import { isPubstreamError, ServiceUnavailableError } from '@pubstream/domain';

/** What a caller answers when the read model cannot be trusted to say "does not exist". */
export const NOT_CAUGHT_UP_MESSAGE = 'The data is being rebuilt; try again shortly';

/**
 * Unknown is not missing (docs/read-models.md): before a read model's miss becomes a 401 or a
 * 404, `confirm()` checks that the read model is caught up. It rejects with
 * ServiceUnavailableError (503 + Retry-After) when the store was emptied or is being rebuilt, or
 * cannot be asked. Only misses pay for it, so the hot path (a hit) is untouched.
 */
export interface MissConfirmation {
  confirm(): Promise<void>;
}

/**
 * Checks with `isCaughtUp`, coalesced: every `confirm()` is answered by a check that was sent after
 * it was called (one sent earlier could have run before the data was lost), at most one check is
 * in flight and one more waits for it. So a flood of misses costs Redis about one check per round
 * trip, and no answer is cached past the moment it was read. With `waitMs`, a read model that is
 * not caught up is asked again every 100 ms for that long before the 503 (the admin, whose writes
 * already wait for the projector: a write racing a projector that is just starting goes through);
 * one that cannot be asked is a 503 at once.
 */
export const createMissConfirmation = (isCaughtUp: () => Promise<boolean>, options: { readonly waitMs?: number } = {}): MissConfirmation => {
  const waitMs = options.waitMs ?? 0;
  let inFlight: Promise<boolean> | null = null;
  let queued: Promise<boolean> | null = null;

  const check = (): Promise<boolean> => {
    const running = isCaughtUp();
    inFlight = running;
    const clear = () => {
      if (inFlight === running) inFlight = null;
    };
    running.then(clear, clear);
    return running;
  };
  /** A check that starts after every check in flight now (so after the caller's miss). */
  const nextCheck = (): Promise<boolean> => {
    if (inFlight === null) return check();
    queued ??= inFlight.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      queued = null;
      return check();
    });
    return queued;
  };

  const askOnce = async (): Promise<boolean> => {
    try {
      return await nextCheck();
    } catch (error) {
      throw isPubstreamError(error) ? error : new ServiceUnavailableError(undefined, { cause: error });
    }
  };

  return {
    async confirm() {
      const deadline = performance.now() + waitMs;
      while (!(await askOnce())) {
        const left = deadline - performance.now();
        if (left <= 0) throw new ServiceUnavailableError(NOT_CAUGHT_UP_MESSAGE);
        await new Promise((resolve) => setTimeout(resolve, Math.min(100, left)));
      }
    },
  };
};
