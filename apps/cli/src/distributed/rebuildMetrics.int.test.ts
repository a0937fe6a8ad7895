import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectRedis, createRedisStores, setPendingGeneration, type RedisReadModelClient } from '@pubstream/read-model';
import { describeWithBackend } from '@pubstream/testing';
import { registerRebuildMetrics, sampleRebuild } from './rebuildMetrics.js';

describeWithBackend('redis', 'rebuild progress on /metrics', (url) => {
  const root = `test-rebuild-${randomUUID().slice(0, 8)}`;
  let client: RedisReadModelClient;

  beforeAll(async () => {
    client = await connectRedis(url, () => {});
  });
  afterAll(async () => {
    await setPendingGeneration(client, root, null);
    await client.close();
  });

  it('given no rebuild, then active is 0; given one half way, then its position and progress', async () => {
    const registry = new Registry();
    registerRebuildMetrics(registry, () => sampleRebuild(client, root, async () => 200));
    const idle = await registry.metrics();
    expect(idle).toContain('pubstream_rebuild_active 0');
    expect(idle).toContain('pubstream_rebuild_progress_ratio 0');

    const generation = `${root}-g1`;
    await setPendingGeneration(client, root, generation);
    await createRedisStores(client, { namespace: generation }).projections.apply([], { projection: 'projector', position: 50 });
    await new Promise((resolve) => setTimeout(resolve, 150)); // past the per-scrape sample
    const text = await registry.metrics();
    expect(text).toContain('pubstream_rebuild_active 1');
    expect(text).toContain('pubstream_rebuild_position 50');
    expect(text).toContain('pubstream_rebuild_progress_ratio 0.25');
  });
});
