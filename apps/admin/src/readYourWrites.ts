import type { ReadModel } from '@pubstream/read-model';

/** Something that can say when the projector has applied a log position (the in-process projector). */
export interface ProjectionWaiter {
  /** Resolves true once `position` is applied, false when `timeoutMs` passes first. */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
}

export interface ReadYourWritesDeps {
  readonly readModel: ReadModel;
  readonly projector?: ProjectionWaiter;
  /** The checkpoint polled when no in-process projector is given (split processes). */
  readonly checkpointName: string;
  readonly timeoutMs: number;
  readonly pollIntervalMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Read-your-writes for the admin: after an append, wait (bounded) until the read models include
 * it, so that what the operator just did is what the next public request sees (a deleted key is
 * rejected at once). Resolves true when applied, false on timeout.
 */
export const createReadYourWrites = (deps: ReadYourWritesDeps) => {
  const pollIntervalMs = deps.pollIntervalMs ?? 10;
  return async (position: number | null): Promise<boolean> => {
    if (position === null || position <= 0) return true;
    if (deps.projector) return deps.projector.waitFor(position, deps.timeoutMs);
    const deadline = Date.now() + deps.timeoutMs;
    for (;;) {
      if ((await deps.readModel.getCheckpoint(deps.checkpointName)) >= position) return true;
      if (Date.now() >= deadline) return false;
      await sleep(pollIntervalMs);
    }
  };
};

export type ReadYourWrites = ReturnType<typeof createReadYourWrites>;
