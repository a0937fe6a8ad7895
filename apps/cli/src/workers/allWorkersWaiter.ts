import { IpcClosedError, type IpcClient, type IpcHandlers } from './workerIpc.js';

/** Resolves true once `position` is applied, false when `timeoutMs` passes first. */
export interface PositionWaits {
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
}

/** A worker's side: the primary asks it to wait for a position on its own projector. */
export const positionHandlers = (waits: () => Promise<PositionWaits>): IpcHandlers => ({
  // Answered once the worker's projector runs: a worker still starting counts (see below).
  'positions.waitFor': async (position: number, timeoutMs: number) => (await waits()).waitFor(position, timeoutMs),
});

/**
 * Read-your-writes across the workers (docs/decisions.md, "API workers"): an admin write answers
 * once the primary's projector AND every connected worker's projector has applied it, so a deleted
 * key is refused by every worker when the DELETE answers. Workers still starting are asked too:
 * one that began replaying the log before the write could otherwise start serving without it.
 * A worker that exits meanwhile is not waited for: its replacement replays the whole log before
 * it serves. False (the admin's 202, "not yet confirmed") when any wait times out.
 */
export const createAllWorkersWaiter = (primary: PositionWaits, workers: () => readonly IpcClient[]): PositionWaits => ({
  async waitFor(position, timeoutMs) {
    const waits = workers().map((worker) =>
      worker.call<boolean>('positions.waitFor', [position, timeoutMs], { timeoutMs: timeoutMs + 500 }).catch((error: unknown) => error instanceof IpcClosedError),
    );
    const results = await Promise.all([primary.waitFor(position, timeoutMs), ...waits]);
    return results.every(Boolean);
  },
});
