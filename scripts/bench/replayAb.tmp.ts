import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { rebuildReadModels } from '@pubstream/projector';
import { connectRedis, createRedisStores, newGenerationNamespace } from '@pubstream/read-model';
import { buildReplayLog } from './replay.js';
const url = process.argv[2]!; const total = Number(process.argv[3] ?? 50000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'ab-'));
const store = createSqliteEventStore(openSqliteDatabase(path.join(dir, 'events.db')));
await buildReplayLog(store, total);
const client = await connectRedis(url, () => undefined);
for (let round = 0; round < Number(process.argv[4] ?? 3); round++) for (const overlap of (process.argv[5] === "only" ? [true] : [false, true])) {
  const r = await rebuildReadModels({ eventStore: store, target: createRedisStores(client, { namespace: newGenerationNamespace(`ab${round}${overlap}`, new Date()) }), overlap });
  console.log(overlap ? 'overlap' : 'serial ', Math.round(r.eventsPerSecond));
  await client.flushAll();
}
await client.close(); await store.close(); rmSync(dir, { recursive: true, force: true });
