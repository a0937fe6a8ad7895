import { randomUUID } from 'node:crypto';
import { it } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis, createRedisStores } from '@pubstream/read-model';
import { expectConsecutiveVersionsDuringWriteBurst, useSubscribeWorlds } from './support/subscribeWorlds.js';

// The hand-off with a read model whose reads take real round trips (Redis): snapshot reads and
// deltas genuinely overlap here, unlike with the synchronous memory adapter.

const { world, connect } = useSubscribeWorlds();

describeWithBackend('redis', 'GET /subscribe on the Redis read model', (url) => {
  it('race: 50 subscribers connecting during a write burst each see consecutive versions, pages never go back', async () => {
    const client = await connectRedis(url, () => {});
    const w = await world({ stores: createRedisStores(client, { namespace: `sub-${randomUUID()}` }), coalesceMs: 5, slowReadsMs: 20 });
    await expectConsecutiveVersionsDuringWriteBurst(w, (sseUrl) => connect(sseUrl, {}), { spreadMs: 500, extraWrites: 30, awaitFinalPage: true });
  });
});
