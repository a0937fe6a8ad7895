// Measures what the change history costs in Redis (docs/read-models.md, "Change history"): the
// same changes applied with and without recording, on a private Redis each, compared by
// used_memory. Run: node --import tsx scripts/historySize.ts [changes] [items]
import { APPLIED_CHECKPOINT, connectRedis, createRedisStores, type ReadModelOp } from '@pubstream/read-model';
import { startLocalRedis } from '@pubstream/testing';

const changes = Number(process.argv[2] ?? 200_000);
const items = Number(process.argv[3] ?? 20_000);
const BATCH = 500;

const usedMemory = async (send: (args: string[]) => Promise<unknown>): Promise<number> => {
  const info = String(await send(['INFO', 'memory']));
  return Number(/used_memory:(\d+)/.exec(info)?.[1]);
};

const itemOp = (i: number, position: number): ReadModelOp => {
  const dataId = `item-${String(i % items).padStart(6, '0')}`;
  const data = { title: `Product ${i % items}`, price: (i % 997) / 10, stock: i % 50, tags: ['sale', 'new'], updatedBy: 'import' };
  return { kind: 'item.put', item: { id: `00000000-0000-4000-8000-${String(i % items).padStart(12, '0')}`, dataId, collectionId: 'products', data, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', version: Math.floor(i / items), position } };
};

const run = async (record: boolean): Promise<{ bytes: number; entryJson: number }> => {
  const redis = await startLocalRedis();
  const client = await connectRedis(redis.url, () => {});
  try {
    const send = (args: string[]) => (client as unknown as { sendCommand(a: string[]): Promise<unknown> }).sendCommand(args);
    const stores = createRedisStores(client, { namespace: 'm' });
    const at = new Date();
    await stores.projections.apply([{ kind: 'collection.put', collection: { slug: 'products', name: 'P', sortableFields: [], createdAt: at.toISOString(), updatedAt: at.toISOString(), version: 0, position: 1 } }], { projection: APPLIED_CHECKPOINT, position: 1 });
    // Every item once, unrecorded in both runs: the read model itself is the baseline.
    for (let i = 0; i < items; i += BATCH) {
      const ops = Array.from({ length: Math.min(BATCH, items - i) }, (_, k) => itemOp(i + k, 2 + i + k));
      await stores.projections.apply(ops, { projection: APPLIED_CHECKPOINT, position: 1 + i + ops.length });
    }
    const before = await usedMemory(send);
    let position = 1 + items;
    for (let i = items; i < items + changes; i += BATCH) {
      const ops = Array.from({ length: BATCH }, (_, k) => itemOp(i + k, position + 1 + k));
      position += BATCH;
      await stores.projections.apply(ops, { projection: APPLIED_CHECKPOINT, position }, record ? { history: { at, windowMs: 86_400_000 } } : {});
    }
    const after = await usedMemory(send);
    const sample = JSON.stringify({ position, dataId: 'item-000001', collectionId: 'products', action: 'update', version: 10, data: (itemOp(1, 1) as { item: { data: unknown } }).item.data });
    return { bytes: after - before, entryJson: sample.length };
  } finally {
    await client.close();
    await redis.stop();
  }
};

const plain = await run(false);
const recorded = await run(true);
const perChange = (recorded.bytes - plain.bytes) / changes;
console.log(JSON.stringify({ changes, items, entryJsonBytes: recorded.entryJson, historyBytesPerChange: Math.round(perChange), historyMiBPerMillionChanges: Math.round((perChange * 1e6) / 2 ** 20) }));
