import { describe, expect, it } from 'vitest';
import { createAllWorkersWaiter, positionHandlers, type PositionWaits } from './allWorkersWaiter.js';
import { createMemoryChannelPair } from './memoryChannelPair.js';
import { createIpcClient, serveIpc } from './workerIpc.js';

/** A projector stand-in at a settable position: waitFor resolves as soon as it gets there. */
const projectorAt = (start: number) => {
  let position = start;
  const waiting: { position: number; resolve: (applied: boolean) => void }[] = [];
  const waits: PositionWaits = {
    waitFor: (target, timeoutMs) =>
      new Promise((resolve) => {
        if (position >= target) return resolve(true);
        waiting.push({ position: target, resolve });
        setTimeout(() => resolve(false), timeoutMs).unref();
      }),
  };
  return {
    waits,
    advance(to: number) {
      position = to;
      for (const entry of waiting.splice(0)) if (entry.position <= to) entry.resolve(true);
    },
  };
};

const workerOf = (projector: PositionWaits) => {
  const pair = createMemoryChannelPair();
  serveIpc(pair.worker, positionHandlers(async () => projector));
  return { pair, client: createIpcClient(pair.primary, { timeoutMs: 1_000 }) };
};

describe('read-your-writes across API workers', () => {
  it('answers only once the primary and every worker have applied the position', async () => {
    const primary = projectorAt(10);
    const slow = projectorAt(9);
    const workers = [workerOf(projectorAt(10).waits), workerOf(slow.waits)];
    const waiter = createAllWorkersWaiter(primary.waits, () => workers.map((worker) => worker.client));
    let answered = false;
    const wait = waiter.waitFor(10, 5_000).then((applied) => ((answered = true), applied));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    slow.advance(10);
    await expect(wait).resolves.toBe(true);
  });

  it('is false (not confirmed) when a worker does not apply it in time', async () => {
    const workers = [workerOf(projectorAt(3).waits)];
    await expect(createAllWorkersWaiter(projectorAt(10).waits, () => workers.map((worker) => worker.client)).waitFor(10, 30)).resolves.toBe(false);
  });

  it('does not wait for a worker that exited (its replacement replays the log before serving)', async () => {
    const gone = workerOf(projectorAt(0).waits);
    gone.pair.hold(true);
    const waiting = createAllWorkersWaiter(projectorAt(10).waits, () => [gone.client]).waitFor(10, 5_000);
    gone.client.close();
    await expect(waiting).resolves.toBe(true);
  });
});
