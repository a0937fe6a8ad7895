import { afterEach, describe, expect, it } from 'vitest';
import { createSubscribeTestWorld, type SubscribeTestWorld } from './subscribe/testing/subscribeTestWorld.js';
import { startApiHarness, type ApiHarness } from './testing/apiHarness.js';

// Issue 23, finding 5: a key is refused (401) and an item or collection is missing (404) only when
// a caught-up read model says so (and "no plan record" means the default plan only then). A read model that has not been marked caught up (emptied by a
// FLUSHALL, being rebuilt) answers such misses 503 with Retry-After; what it has, it serves.

const harnesses: ApiHarness[] = [];
const worlds: SubscribeTestWorld[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const w of worlds.splice(0)) await w.close();
});

const expect503 = async (response: Response) => {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('1');
  expect(await response.json()).toEqual({ error: 'Service Unavailable', message: 'The data is being rebuilt; try again shortly' });
};

describe('misses of a read model that is not caught up', () => {
  it('are 503, not 401 or 404, while hits are served; once marked caught up they are 401 and 404 again', async () => {
    const h = await startApiHarness({ caughtUp: false });
    harnesses.push(h);
    await h.plan('pro', null);
    const { raw } = await h.key();
    await h.collection('books');
    await h.item('books', 'dune', { title: 'Dune' });
    const key = { 'X-API-Key': raw };
    const unknownKey = { 'X-API-Key': `pk_live_${'x'.repeat(32)}` };

    expect((await h.get('/public/data/dune', key)).status).toBe(200);
    expect((await h.get('/public/collections/books/data', key)).status).toBe(200);
    await expect503(await h.get('/public/data/dune', unknownKey));
    await expect503(await h.get('/public/data/nope', key));
    await expect503(await h.get('/public/collections/films/data', key));
    await expect503(await h.post('/public/batch', { dataIds: ['dune', 'nope'] }, key));
    // Without a plan record, the default plan cannot be told from a lost one.
    const noPlan = await startApiHarness({ caughtUp: false });
    harnesses.push(noPlan);
    await expect503(await noPlan.get('/public/data/dune', { 'X-API-Key': (await noPlan.key()).raw }));
    // Known not to exist whatever the read model holds: a malformed key or dataId, an impossible slug.
    expect((await h.get('/public/data/dune', { 'X-API-Key': 'nonsense' })).status).toBe(401);
    expect((await h.get('/public/data/-bad', key)).status).toBe(400);
    const ready = await h.get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'degraded', checks: { readModel: 'ok', caughtUp: 'failing: the read model is being rebuilt', changeStream: 'ok' } });

    expect(await h.stores.projections.markCaughtUp({ projection: 'test', position: 0 })).toBe(true);
    expect((await h.get('/public/data/dune', unknownKey)).status).toBe(401);
    expect((await h.get('/public/data/nope', key)).status).toBe(404);
    expect((await h.get('/public/collections/films/data', key)).status).toBe(404);
    const batch = await h.post('/public/batch', { dataIds: ['dune', 'nope'] }, key);
    expect(await batch.json()).toMatchObject({ found: 1, notFound: ['nope'] });
  });

  it('GET /subscribe with a collection it does not know is 503, then 404 once caught up', async () => {
    const w = await createSubscribeTestWorld({ caughtUp: false });
    worlds.push(w);
    await w.setPlan('business');
    const { apiKey } = await w.createKey();
    const refused = await fetch(w.subscribeUrl({ apiKey, collections: 'films' }));
    await expect503(refused);
    await w.stores.projections.markCaughtUp({ projection: 'world', position: 0 });
    const missing = await fetch(w.subscribeUrl({ apiKey, collections: 'films' }));
    expect(missing.status).toBe(404);
    await missing.text();
  });
});
