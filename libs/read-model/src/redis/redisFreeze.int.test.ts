import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RedisClientType } from 'redis';
import { ServiceUnavailableError } from '@pubstream/domain';
import { describeWithBackend, startLocalRedis, type LocalRedis } from '@pubstream/testing';
import { itemRecord } from '../testing/index.js';
import { RedisTimeoutError } from './boundedRedisCall.js';
import { connectRedis } from './redisConnection.js';
import { createGenerationalRedisStores } from './generationalStores.js';

// Issue 23, findings 2 and 5 at the adapter: a private redis-server (this file freezes it with
// SIGSTOP, thawed in afterAll whatever happens, and flushes it).

describeWithBackend('redis', 'redis stores when Redis freezes or loses its data', () => {
  let redis: LocalRedis | undefined;
  let admin: RedisClientType | undefined;
  let pid = 0;
  let frozen = false;
  const thaw = () => {
    if (!frozen) return;
    frozen = false;
    process.kill(pid, 'SIGCONT');
  };

  beforeAll(async () => {
    redis = await startLocalRedis();
    admin = (await connectRedis(redis.url, () => {})) as RedisClientType;
    pid = Number(/process_id:(\d+)/.exec(await admin.info('server'))?.[1]);
  });
  afterAll(async () => {
    thaw();
    await admin?.close();
    await redis?.stop();
  });

  it('with a command timeout, every call against a frozen Redis rejects with ServiceUnavailableError in time, and works again after the thaw', async () => {
    const stores = await createGenerationalRedisStores(await connectRedis(redis!.url, () => {}), { commandTimeoutMs: 300 });
    await stores.projections.apply([{ kind: 'item.put', item: itemRecord('a', 'c', 1) }], { projection: 'p', position: 1 });

    const at = new Date();
    await stores.usage.recordUsage([{ keyId: 'k', at, count: 1 }]);
    process.kill(pid, 'SIGSTOP');
    frozen = true;
    let counted: Promise<void> | undefined;
    try {
      // Usage counts are not idempotent: they wait for Redis instead of failing (and being counted again).
      counted = stores.usage.recordUsage([{ keyId: 'k', at, count: 2 }]);
      const started = performance.now();
      const outcomes = await Promise.allSettled([
        stores.readModel.getItem('a'),
        stores.readModel.getCollectionPage('c', { sort: 'dataId', order: 'asc', offset: 0, limit: 5 }),
        stores.keys.getKeyByHash('h'),
        stores.readModel.isCaughtUp(),
        stores.ping(),
      ]);
      // Bounded by the timeout, not by the freeze (generous slack for a loaded machine).
      expect(performance.now() - started).toBeLessThan(3_000);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        const reason = (outcome as PromiseRejectedResult).reason as ServiceUnavailableError;
        expect(reason).toBeInstanceOf(ServiceUnavailableError);
        expect(reason.cause).toBeInstanceOf(RedisTimeoutError);
      }
      expect(await Promise.race([counted.then(() => 'written'), new Promise((resolve) => setTimeout(resolve, 200, 'waiting'))])).toBe('waiting');
    } finally {
      thaw();
    }
    await counted;
    expect((await stores.usage.getUsage(['k']))[0]?.requestCount).toBe(3);
    expect((await stores.readModel.getItem('a'))?.dataId).toBe('a');
    await stores.close();
  });

  it('FLUSHALL removes the caught-up marker; the projection store marks the store again only once its checkpoint is back', async () => {
    const stores = await createGenerationalRedisStores(await connectRedis(redis!.url, () => {}), { commandTimeoutMs: 1_000 });
    await stores.projections.apply([{ kind: 'item.put', item: itemRecord('a', 'c', 1) }], { projection: 'projector', position: 7 });
    expect(await stores.projections.markCaughtUp({ projection: 'projector', position: 7 })).toBe(true);
    expect(await stores.readModel.isCaughtUp()).toBe(true);

    await admin!.flushAll();
    expect(await stores.readModel.isCaughtUp()).toBe(false);
    // The projector has not noticed yet: it still believes it applied up to 7.
    expect(await stores.projections.markCaughtUp({ projection: 'projector', position: 7 })).toBe(false);
    expect(await stores.readModel.isCaughtUp()).toBe(false);
    // Its replay from 0 reaches 7 again.
    await stores.projections.apply([{ kind: 'item.put', item: itemRecord('a', 'c', 1) }], { projection: 'projector', position: 7 });
    expect(await stores.projections.markCaughtUp({ projection: 'projector', position: 7 })).toBe(true);
    expect(await stores.readModel.isCaughtUp()).toBe(true);
    await stores.close();
  });
});
