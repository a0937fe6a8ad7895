import { createMemoryStores, type ItemRecord } from '@pubstream/read-model';
import { expect, it } from 'vitest';
import { overlayReads } from './readOverlay.js';

const item = (dataId: string, version: number): ItemRecord => ({
  id: `id-${dataId}`,
  dataId,
  collectionId: 'c',
  data: { version },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version,
  position: version + 1,
});

it('answers the records the ops write from the ops, and every other record from the base reads, in the order asked', async () => {
  const base = createMemoryStores();
  await base.projections.apply(
    [
      { kind: 'item.put', item: item('a', 0) },
      { kind: 'item.put', item: item('b', 0) },
      { kind: 'item.put', item: item('c', 0) },
    ],
    { projection: 'p', position: 3 },
  );
  const reads = overlayReads(base, [
    { kind: 'item.put', item: item('b', 1) },
    { kind: 'item.delete', dataId: 'c', collectionId: 'c', version: 1, position: 5 },
    { kind: 'item.put', item: item('d', 0) },
  ]);
  const records = await reads.readModel.getItems(['a', 'b', 'c', 'd', 'e']);
  expect(records.map((r) => r?.version ?? null)).toEqual([0, 1, null, 0, null]);
  expect(records[1]?.data).toEqual({ version: 1 });
});

it('overlays collections and keys, deletions included', async () => {
  const base = createMemoryStores();
  const collection = { slug: 's', name: 'S', sortableFields: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', version: 0 };
  await base.projections.apply([{ kind: 'collection.put', collection: collection as never }], { projection: 'p', position: 1 });
  const reads = overlayReads(base, [{ kind: 'collection.delete', slug: 's', version: 1, position: 2 }]);
  expect(await reads.readModel.getCollection('s')).toBeNull();
  expect(await overlayReads(base, [{ kind: 'plan.put', plan: {} as never }]).readModel.getCollection('s')).toMatchObject({ slug: 's' });
  const keyReads = overlayReads(base, [{ kind: 'key.delete', keyId: 'k1', keyHash: 'h', version: 2 }]);
  expect(await keyReads.keys.getKey('k1')).toBeNull();
});
