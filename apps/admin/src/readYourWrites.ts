import type { ProjectionStore } from '@pubstream/read-model';

/** Something that can say when the projector has applied a log position (the in-process projector). */
export interface ProjectionWaiter {
  /** Resolves true once `position` is applied, false when `timeoutMs` passes first. */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
}

export interface ReadYourWritesDeps {
  /** Where the projector's checkpoint is stored (polled in split processes). */
  readonly checkpoints: Pick<ProjectionStore, 'getCheckpoint'>;
  readonly projector?: ProjectionWaiter;
  /** The checkpoint polled when no in-process projector is given (split processes). */
  readonly checkpointName: string;
  readonly timeoutMs: number;
  readonly pollIntervalMs?: number;
  /** Called once per wait that ends without confirmation, with the last error seen (if any). */
  readonly onUnconfirmed?: (position: number, lastError: unknown) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `promise`, or `fallback` once `ms` have passed (the promise is left to settle on its own). */
const within = <T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), Math.max(0, ms));
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
};

/**
 * Read-your-writes for the admin: after an append, wait (bounded) until the read models include
 * it, so that what the operator just did is what the next public request sees (a deleted key is
 * rejected at once). Resolves true when applied, false when it cannot say within `timeoutMs`:
 * on timeout, and also when the read model fails or hangs meanwhile. It never throws: the write
 * is already committed, and its answer must not turn into a failure (docs/admin-api.md, 202).
 */
export const createReadYourWrites = (deps: ReadYourWritesDeps) => {
  const pollIntervalMs = deps.pollIntervalMs ?? 10;

  const pollCheckpoint = async (position: number, deadline: number): Promise<{ applied: boolean; lastError: unknown }> => {
    let lastError: unknown;
    for (;;) {
      const left = deadline - Date.now();
      try {
        const checkpoint = await within(deps.checkpoints.getCheckpoint(deps.checkpointName), left, -1);
        if (checkpoint >= position) return { applied: true, lastError };
      } catch (error) {
        // A dropped connection may come back before the deadline: keep polling until then.
        lastError = error;
      }
      if (Date.now() >= deadline) return { applied: false, lastError };
      await sleep(Math.min(pollIntervalMs, Math.max(0, deadline - Date.now())));
    }
  };

  return async (position: number | null): Promise<boolean> => {
    if (position === null || position <= 0) return true;
    let outcome: { applied: boolean; lastError: unknown };
    if (deps.projector) {
      outcome = await within(
        deps.projector.waitFor(position, deps.timeoutMs).then(
          (applied) => ({ applied, lastError: undefined as unknown }),
          (error: unknown) => ({ applied: false, lastError: error }),
        ),
        deps.timeoutMs + 100,
        { applied: false, lastError: undefined },
      );
    } else {
      outcome = await pollCheckpoint(position, Date.now() + deps.timeoutMs);
    }
    if (!outcome.applied) deps.onUnconfirmed?.(position, outcome.lastError);
    return outcome.applied;
  };
};

export type ReadYourWrites = ReturnType<typeof createReadYourWrites>;
