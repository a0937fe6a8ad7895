import { describe, expect, it } from 'vitest';
import { eventually } from '@pubstream/testing';
import type { ReceivedEvent, SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { isItem, useSubscribeWorlds } from './support/subscribeWorlds.js';

// Positions on GET /subscribe over a real HTTP server, the memory read model with its change
// history and the in-process change stream (docs/subscriptions.md, "Positions").

const { world, connect } = useSubscribeWorlds();

const ready = (e: ReceivedEvent): boolean => e.event === 'ready';
/** The item events (with their ids) after the stream's first `ready`. */
const itemEventsAfterReady = (client: SseTestClient) => {
  const at = client.events.findIndex(ready);
  return client.events.flatMap((event, index) => (index > at && event.data?.dataId ? [{ ...event, id: client.ids[index] }] : []));
};

describe('GET /subscribe: ids, ready and resume', () => {
  it('puts the position as id on every delta and on ready; resuming from= a position sends exactly the changes after it, once, without a snapshot', async () => {
    const w = await world();
    const { apiKey } = await w.createKey();
    await w.putCollection('news');
    await w.putItem('news', 'a', { n: 0 });
    await w.putItem('news', 'b', { n: 0 });

    const first = await connect(w.subscribeUrl({ apiKey, dataIds: 'a,b' }));
    await first.waitFor(ready, 'ready');
    const readyAt = Number(first.lastEventId());
    await w.putItem('news', 'a', { n: 1 });
    await w.deleteItem('news', 'b');
    await first.waitFor((e) => e.event === 'delete', 'delete of b');
    const ids = itemEventsAfterReady(first).map((e) => Number(e.id));
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBeGreaterThan(readyAt);
    expect(ids[1]).toBeGreaterThan(ids[0] as number);
    first.close();

    // Changes while away: a twice, b re-created, a third item not subscribed.
    const lastSeen = ids[1] as number;
    await w.putItem('news', 'a', { n: 2 });
    await w.putItem('news', 'other', { n: 0 });
    await w.putItem('news', 'b', { n: 5 });
    await w.putItem('news', 'a', { n: 3 });

    const resumed = await connect(w.subscribeUrl({ apiKey, dataIds: 'a,b', from: String(lastSeen) }));
    await resumed.waitFor(ready, 'ready after the catch-up');
    await w.putItem('news', 'a', { n: 4 });
    await resumed.waitFor((e) => isItem('a')(e) && e.data.data.n === 4, 'live a n=4');
    const events = resumed.events.filter((e) => e.event !== 'connected');
    expect(events.map((e) => (e.event === 'ready' ? 'ready' : `${e.data.dataId} ${e.data.data.n}`))).toEqual(['a 2', 'b 5', 'a 3', 'ready', 'a 4']);
    const resumedIds = resumed.ids.filter((id): id is string => id !== undefined).map(Number);
    expect(resumedIds[0]).toBeGreaterThan(lastSeen);
    expect(resumedIds).toEqual([...resumedIds].sort((x, y) => x - y));
  });

  it('takes Last-Event-ID over from=; a malformed one of either is 400 Invalid position, before any stream', async () => {
    const w = await world();
    const { apiKey } = await w.createKey();
    await w.putCollection('news');
    await w.putItem('news', 'a', { n: 0 });
    const at = Number((await w.stores.readModel.getItem('a'))?.position);
    await w.putItem('news', 'a', { n: 1 });

    // from=0 alone would send both versions; the header's position sends only the second.
    const both = await connect(w.subscribeUrl({ apiKey, dataIds: 'a', from: '0' }), { 'Last-Event-ID': String(at) });
    await both.waitFor(ready, 'ready');
    expect(both.events.filter(isItem('a')).map((e) => e.data.data.n)).toEqual([1]);

    for (const [query, headers] of [
      [{ from: '-1' }, {}],
      [{ from: 'abc' }, {}],
      [{ from: '1234567890123456' }, {}],
      [{}, { 'Last-Event-ID': '1.5' }],
    ] as const) {
      const refused = await connect(w.subscribeUrl({ apiKey, dataIds: 'a', ...query }), { ...headers });
      expect(refused.status).toBe(400);
      expect(JSON.parse(await refused.body())).toEqual({ error: 'Bad Request', message: 'Invalid position' });
    }
  });

  it('a resume from a position older than the retained history gets reset, then a correct snapshot and ready', async () => {
    const w = await world({ resumeWindowMs: 1_000 });
    const { apiKey } = await w.createKey();
    await w.putCollection('news');
    await w.putItem('news', 'a', { n: 0 });
    const old = await w.stores.readModel.appliedPosition();
    // Keep writing until the history's floor has passed the old position (its window is 1 s).
    let n = 0;
    await eventually('the history floor to pass the old position', async () => {
      await w.putItem('news', 'a', { n: ++n });
      return (await w.stores.history.historyFloor()) > old ? true : undefined;
    }, 15_000, 250);

    const client = await connect(w.subscribeUrl({ apiKey, dataIds: 'a,never', from: String(old) }));
    await client.waitFor(ready, 'ready');
    expect(client.events.map((e) => e.event)).toEqual(['connected', 'reset', 'update', 'ready']);
    expect(client.events[1]?.data).toEqual({ reason: 'position_expired' });
    expect(client.events[2]?.data).toMatchObject({ dataId: 'a', data: { n } });
    expect(client.ids.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(Number(client.ids[3])).toBe(await w.stores.readModel.appliedPosition());
  });

  it('a resume from a position ahead of the node waits for the node and skips nothing; 503 JSON when the node does not get there in time', async () => {
    const cap = { value: Number.POSITIVE_INFINITY };
    const w = await world({
      positionWaitMs: 10_000,
      // A node that lags: its applied position stops at `cap` while the writes go on elsewhere.
      positions: (real) => ({ ...real, appliedPosition: async () => Math.min(cap.value, await real.appliedPosition()) }),
    });
    const { apiKey } = await w.createKey();
    await w.putCollection('news');
    await w.putItem('news', 'a', { n: 0 });
    cap.value = await w.stores.readModel.appliedPosition();
    await w.putItem('news', 'a', { n: 1 });
    const seen = await w.stores.readModel.appliedPosition(); // the client saw n=1 on a faster node
    await w.putItem('news', 'a', { n: 2 });
    await w.putItem('news', 'a', { n: 3 });

    const pending = connect(w.subscribeUrl({ apiKey, dataIds: 'a', from: String(seen) }));
    let answered = false;
    void pending.then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    cap.value = Number.POSITIVE_INFINITY;
    const client = await pending;
    await client.waitFor(ready, 'ready');
    expect(client.events.filter(isItem('a')).map((e) => e.data.data.n)).toEqual([2, 3]);

    const slow = await world({ positionWaitMs: 100, positions: (real) => ({ ...real, appliedPosition: async () => 0 }) });
    const slowKey = await slow.createKey();
    const refused = await connect(slow.subscribeUrl({ apiKey: slowKey.apiKey, dataIds: 'a', from: '50' }));
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(JSON.parse(await refused.body())).toMatchObject({ error: 'Service Unavailable' });
  });

  it('after a change-stream gap, a live stream catches up from its last id through the history: the lost change once, no snapshot', async () => {
    const w = await world();
    const { apiKey } = await w.createKey();
    await w.putCollection('news');
    await w.putItem('news', 'a', { n: 0 });
    await w.putItem('news', 'b', { n: 0 });
    const client = await connect(w.subscribeUrl({ apiKey, dataIds: 'a,b' }));
    await client.waitFor(ready, 'ready');
    await w.putItem('news', 'a', { n: 1 }, { publish: false }); // its message is lost
    w.triggerGap('consumer restarted');
    await client.waitFor((e) => isItem('a')(e) && e.data.data.n === 1, 'the lost change');
    await w.putItem('news', 'b', { n: 1 });
    await client.waitFor((e) => isItem('b')(e) && e.data.data.n === 1, 'live b');
    const names = client.events.map((e) => (e.data?.dataId ? `${e.data.dataId} ${e.data.data.n}` : e.event));
    expect(names).toEqual(['connected', 'a 0', 'b 0', 'ready', 'a 1', 'ready', 'b 1']);
  });
});
