import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { createMemoryStores } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { compareReadModels } from './compareReadModels.js';
import { exportEvents, importEvents, parseNdjsonEvents, toNdjsonLine } from './eventExport.js';
import { rebuildReadModels } from './rebuild.js';
import { append, writeHistory } from './testing/history.js';

describe('event export and import (SQLite)', () => {
  it('an exported log re-imported into an empty store rebuilds identical read models', async () => {
    const source = createSqliteEventStore(openSqliteDatabase(':memory:'));
    await writeHistory(source);
    // An old-schema event, exported as stored and upcast again on the other side.
    await append(source, 'apikey-old', 'ApiKeyCreated', { keyId: 'old', name: 'v1', type: 'live', keyHash: 'd'.repeat(64), last4: 'zzzz', domains: 'x.com', rateLimit: 5 }, { schemaVersion: 1 });

    const lines: string[] = [];
    for await (const event of exportEvents({ eventStore: source })) lines.push(toNdjsonLine(event));
    const target = createSqliteEventStore(openSqliteDatabase(':memory:'));
    expect(await importEvents(target, parseNdjsonEvents(lines.join('').split('\n')), 4)).toBe(lines.length);
    // Importing the same export again appends nothing (event ids are kept).
    await importEvents(target, parseNdjsonEvents(lines));
    expect(await target.headPosition()).toBe(lines.length);

    const fromSource = createMemoryStores();
    const fromImport = createMemoryStores();
    await rebuildReadModels({ eventStore: source, target: fromSource });
    await rebuildReadModels({ eventStore: target, target: fromImport });
    expect(await compareReadModels(fromSource, fromImport)).toEqual([]);
    expect((await fromImport.keys.getKey('old'))?.allowedDomains).toEqual(['x.com']);
  });

  it('exports a position range filtered by type, with positions', async () => {
    const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'));
    const head = await writeHistory(eventStore);
    const exported = [];
    for await (const event of exportEvents({ eventStore, from: 2, to: head - 1, types: ['ItemCreated', 'ItemDeleted'] })) exported.push(event);
    expect(exported.map((e) => e.type)).toEqual(['ItemCreated', 'ItemCreated', 'ItemDeleted', 'ItemCreated', 'ItemDeleted']);
    expect(exported.every((e) => e.position > 2 && e.position < head)).toBe(true);
    expect(exported[0]).toMatchObject({ streamName: 'item-a2', revision: 0 });
  });
});
