import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '@pubstream/domain';
import { caughtUpKeyReads, caughtUpReadModel } from './caughtUpReads.js';
import { createMemoryStores } from './memory/memoryStores.js';
import { createMissConfirmation } from './missConfirmation.js';
import { itemRecord, keyRecord } from './testing/contractFixtures.js';

describe('caught-up reads (the admin)', () => {
  it('answer nothing, not even an empty list, until the read model is caught up; then every read passes', async () => {
    const stores = createMemoryStores();
    const gate = createMissConfirmation(() => stores.readModel.isCaughtUp());
    const readModel = caughtUpReadModel(stores.readModel, gate);
    const keys = caughtUpKeyReads(stores.keys, gate);
    await stores.projections.apply([{ kind: 'item.put', item: itemRecord('a', 'c', 1) }, { kind: 'key.put', key: keyRecord('k', 1) }], { projection: 'projector', position: 2 });

    for (const read of [readModel.getItem('a'), readModel.getItem('b'), readModel.listCollections(), readModel.countItems('c'), keys.listKeys(), keys.getKey('k')]) {
      await expect(read).rejects.toBeInstanceOf(ServiceUnavailableError);
    }
    expect(await stores.projections.markCaughtUp({ projection: 'projector', position: 2 })).toBe(true);
    expect((await readModel.getItem('a'))?.dataId).toBe('a');
    expect(await readModel.getItem('b')).toBeNull();
    expect(await readModel.listCollections()).toEqual([]);
    expect((await keys.listKeys()).map((key) => key.keyId)).toEqual(['k']);
  });
});
