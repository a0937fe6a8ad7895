import type { EventStore, EventSubscription, RecordedEvent } from '@pubstream/event-store';
import { createMemoryStores, FencedError, type ProjectionStore, type Stores } from '@pubstream/read-model';
import { describe, expect, it, vi } from 'vitest';
import { applyBatch, runBatchApplier, type BatchApplierDeps } from './batchApplier.js';
import { createPositionWatch } from './positionWatch.js';
import { silentLogger } from './projectorLogger.js';
import { PROJECTIONS } from './projections/index.js';
import { itemEvent } from './testing/recordedEvents.js';

/** An event store whose subscriptions deliver `batches` (after `after`) in order, then wait. */
const fakeLog = (batches: RecordedEvent[][]) => {
  const subscriptions: number[] = [];
  const eventStore: Pick<EventStore, 'subscribeToAll'> = {
    subscribeToAll: ({ after }, handler): EventSubscription => {
      subscriptions.push(after);
      let closed = false;
      const done = (async () => {
        for (const batch of batches) {
          const rest = batch.filter((e) => e.position > after);
          if (closed || rest.length === 0) continue;
          await handler(rest);
        }
        await new Promise<void>((resolve) => { const poll = setInterval(() => { if (closed) { clearInterval(poll); resolve(); } }, 5); });
      })();
      return { done, close: async () => void (closed = true) };
    },
  };
  return { eventStore, subscriptions };
};

const depsOf = (eventStore: Pick<EventStore, 'subscribeToAll'>, projections: Partial<ProjectionStore> = {}, from = 0): BatchApplierDeps & { states: string[]; read: Stores['readModel'] } => {
  const stores = createMemoryStores();
  const states: string[] = [];
  return {
    eventStore,
    stores: { ...stores, projections: { ...stores.projections, ...projections } },
    projections: PROJECTIONS,
    checkpoint: 'projector',
    batchSize: 10,
    lease: null,
    resumeWindowMs: 86_400_000,
    now: () => new Date(),
    applied: createPositionWatch(from),
    retry: { initialMs: 1, maxMs: 5 },
    logger: silentLogger,
    onSkip: () => {},
    onBatch: () => {},
    onState: (state) => void states.push(state),
    states,
    read: stores.readModel,
  };
};

describe('batch applier', () => {
  it('stores one batch with its last position as the checkpoint', async () => {
    const deps = depsOf(fakeLog([]).eventStore);
    const stored = await applyBatch(deps, [itemEvent(1, 'a'), itemEvent(2, 'a', 1, { n: 5 })]);
    expect(stored?.position).toBe(2);
    expect(stored?.events.map((e) => e.position)).toEqual([1, 2]);
    expect((await deps.read.getItem('a'))?.data).toEqual({ n: 5 });
    expect(await deps.stores.projections.getCheckpoint('projector')).toBe(2);
    expect(await applyBatch(deps, [])).toBeNull();
  });

  it('follows the log from the applied position and advances it batch by batch until stopped', async () => {
    const { eventStore, subscriptions } = fakeLog([[itemEvent(1, 'a'), itemEvent(2, 'b')], [itemEvent(3, 'a', 1)]]);
    const deps = depsOf(eventStore, {}, 1);
    const stop = new AbortController();
    const running = runBatchApplier(deps, stop.signal);
    expect(await deps.applied.reach(3, 2_000)).toBe(true);
    stop.abort();
    await running;
    expect(subscriptions).toEqual([1]);
    expect(await deps.read.getItem('a')).toBeNull(); // its creation (position 1) was applied before
    expect((await deps.read.getItem('b'))?.version).toBe(0);
  });

  it('after a backend error, waits and follows again from the last stored batch', async () => {
    const { eventStore, subscriptions } = fakeLog([[itemEvent(1, 'a')], [itemEvent(2, 'b')]]);
    const real = createMemoryStores().projections;
    let failures = 1;
    const apply = vi.fn<ProjectionStore['apply']>(async (...args) => {
      if (args[1].position === 2 && failures-- > 0) throw new Error('ECONNRESET');
      return real.apply(...args);
    });
    const deps = depsOf(eventStore, { apply });
    const stop = new AbortController();
    const running = runBatchApplier(deps, stop.signal);
    expect(await deps.applied.reach(2, 2_000)).toBe(true);
    stop.abort();
    await running;
    expect(subscriptions).toEqual([0, 1]);
    expect(deps.states).toContain('retrying');
    expect(deps.states.at(-1)).toBe('running');
  });

  it('rethrows FencedError: the lease is gone', async () => {
    const { eventStore } = fakeLog([[itemEvent(1, 'a')]]);
    const deps = depsOf(eventStore, { apply: async () => { throw new FencedError(); } });
    await expect(runBatchApplier(deps, new AbortController().signal)).rejects.toBeInstanceOf(FencedError);
    expect(deps.applied.get()).toBe(0);
  });
});
