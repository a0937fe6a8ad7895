import type { ChangeMessage } from '@pubstream/change-stream';
import type { ProjectionStore, Stores } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { append, writeHistory } from './testing/history.js';
import { entityVersions, EVERY_VERSION, open, projectorRunner, waitUntil, withOverrides } from './testing/projectorHarness.js';
import { createTestChangeStream } from './testing/testChangeStream.js';

const startProjector = projectorRunner();

describe('projector publishing beside applying', () => {
  it('keeps applying and keeps its lease while the change stream hangs; publishes what it missed in order once it returns', async () => {
    const { eventStore, stores } = open();
    const { changeStream: inner, received } = await createTestChangeStream();
    // A broker that is gone: publishes hang until it returns (as a publish to a dead broker did for ~18 s).
    let back: () => void = () => {};
    const returned = new Promise<void>((resolve) => (back = resolve));
    const changeStream = { ...inner, publish: async (messages: readonly ChangeMessage[]) => { await returned; await inner.publish(messages); } };
    const ttlMs = 300;
    const projector = startProjector({ eventStore, stores, changeStream, batchSize: 3, lease: { holder: 'a', ttlMs } });
    const head = await writeHistory(eventStore);
    expect(await projector.waitFor(head, 5_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, ttlMs * 2));
    const later = await append(eventStore, 'item-a2', 'ItemUpdated', { dataId: 'a2', collection: 'news', data: { rank: 8 } });
    expect(await projector.waitFor(later, 5_000)).toBe(true);
    expect((await stores.readModel.getItem('a2'))?.data).toEqual({ rank: 8 });
    expect(projector.snapshot()).toMatchObject({ active: true, applied: later, published: 0 });
    expect(received).toEqual([]);

    back();
    await waitUntil(async () => (await projector.status()).published === later);
    expect(entityVersions(received)).toEqual([...EVERY_VERSION, 'item:a2:update@1']);
    expect(projector.snapshot().active).toBe(true);
  });

});

describe('projector lease and failover', () => {
  it('only the lease holder applies; the standby takes over after the holder dies without releasing', async () => {
    const { eventStore, stores } = open();
    const applies = { a: 0, b: 0 };
    const counting = (who: 'a' | 'b', extra: Partial<ProjectionStore> = {}): Stores => ({
      ...stores,
      projections: withOverrides(stores.projections, {
        apply: async (...args: Parameters<ProjectionStore['apply']>) => {
          if (args[0].length > 0) applies[who] += 1;
          return stores.projections.apply(...args);
        },
        ...extra,
      }),
    });
    const ttlMs = 300;
    const { changeStream, received } = await createTestChangeStream();
    // "a" dies without releasing its lease: its release is lost, like a SIGKILL.
    const a = startProjector({ eventStore, stores: counting('a', { releaseLease: async () => {} }), changeStream, lease: { holder: 'a', ttlMs } });
    await waitUntil(async () => (await a.status()).state === 'running');
    const b = startProjector({ eventStore, stores: counting('b'), changeStream, lease: { holder: 'b', ttlMs, pollMs: 50 } });

    const head = await writeHistory(eventStore);
    expect(await a.waitFor(head, 5_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, ttlMs));
    expect(applies.a).toBeGreaterThan(0);
    expect(applies.b).toBe(0);
    expect((await b.status()).state).toBe('waiting-for-lease');

    await a.stop();
    const later = await append(eventStore, 'item-a2', 'ItemUpdated', { dataId: 'a2', collection: 'news', data: { rank: 7 } });
    expect(await b.waitFor(later, 5_000)).toBe(true);
    expect(applies.b).toBeGreaterThan(0);
    expect((await stores.readModel.getItem('a2'))?.data).toEqual({ rank: 7 });
    await waitUntil(() => received.some((m) => m.kind === 'item' && m.dataId === 'a2' && m.version === 1));
  });
});
