import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSqliteEventStore, openSqliteDatabase, type EventStore } from '@pubstream/event-store';
import { compareReadModels, rebuildReadModels } from '@pubstream/projector';
import {
  connectRedis,
  createGenerationalRedisStores,
  createMemoryStores,
  createRedisStores,
  readActiveGeneration,
  readPendingGeneration,
  type RedisReadModelClient,
} from '@pubstream/read-model';
import { describeWithBackend } from '@pubstream/testing';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ITEMS = 5_000;

const writeLog = async (eventStore: EventStore): Promise<number> => {
  await eventStore.appendToStream('collection-load', [{ type: 'CollectionCreated', data: { slug: 'load', name: 'Load', sortableFields: [] }, metadata: {} }], { expectedRevision: 'any' });
  for (let round = 0; round < 3; round++) {
    await eventStore.appendToStreams(
      Array.from({ length: ITEMS }, (_, i) => ({
        streamName: `item-z${i}`,
        expectedRevision: 'any' as const,
        events: [{ type: round === 0 ? 'ItemCreated' : 'ItemUpdated', data: { ...(round === 0 ? { id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}` } : {}), dataId: `z${i}`, collection: 'load', data: { round } }, metadata: {} }],
      })),
    );
  }
  return eventStore.headPosition();
};

// `pubstream projections rebuild` as a real process on a fresh Redis database: SIGKILLed halfway
// through, then run again. The second run resumes the same generation from its own checkpoint,
// switches it live, drops the old one and ends equal to a model built from scratch.
describeWithBackend('redis', 'pubstream projections rebuild (process, SIGKILL, resume)', (url) => {
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-generation-'));
  const file = join(dir, 'events.db');
  const dbUrl = `${url.replace(/\/\d*$/, '')}/7`;
  let client: RedisReadModelClient;
  let eventStore: EventStore;

  beforeAll(async () => {
    client = await connectRedis(dbUrl, () => {});
    await (client as unknown as { flushDb(): Promise<unknown> }).flushDb();
    eventStore = createSqliteEventStore(openSqliteDatabase(file));
  });
  afterAll(async () => {
    await (client as unknown as { flushDb(): Promise<unknown> }).flushDb();
    await client.close();
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rebuild = () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'projections', 'rebuild'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'test', EVENT_STORE_URL: `sqlite:${file}`, REDIS_URL: dbUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    return { child, output: () => output, exited: once(child, 'exit') };
  };

  it('resumes the unfinished generation after SIGKILL, then switches and drops the old one', async () => {
    const head = await writeLog(eventStore);
    // The live generation (the root) as an older projector left it: only the collection.
    await rebuildReadModels({ eventStore: { ...eventStore, headPosition: async () => 1, readAll: (o) => eventStore.readAll({ ...o, until: 1 }) }, target: createRedisStores(client) });

    const first = rebuild();
    const deadline = Date.now() + 40_000;
    let pending: string | null = null;
    for (;;) {
      if (Date.now() > deadline || first.child.exitCode !== null) throw new Error(`the rebuild did not progress as expected: ${first.output().slice(-300)}`);
      pending ??= await readPendingGeneration(client, 'ps');
      if (pending && (await createRedisStores(client, { namespace: pending }).projections.getCheckpoint('projector')) > head / 4) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const reached = await createRedisStores(client, { namespace: pending as string }).projections.getCheckpoint('projector');
    expect(reached).toBeLessThan(head);
    // Half built: its misses are not to be trusted (docs/read-models.md, "Unknown is not missing").
    expect(await createRedisStores(client, { namespace: pending as string }).readModel.isCaughtUp()).toBe(false);
    // Killed halfway: nothing switched, readers still see the old generation.
    expect(await readActiveGeneration(client, 'ps')).toBe('ps');

    const second = rebuild();
    const [code] = await second.exited;
    expect(second.output()).toContain(`resuming the unfinished generation ${pending}`);
    expect(code).toBe(0);
    const printed = JSON.parse(second.output().slice(second.output().indexOf('{'), second.output().lastIndexOf('}') + 1)) as { position: number; events: number };
    expect(printed.position).toBe(head);
    expect(printed.events).toBe(head - reached);

    expect(await readActiveGeneration(client, 'ps')).toBe(pending);
    expect(await readPendingGeneration(client, 'ps')).toBeNull();
    expect(await (client as unknown as { keys(p: string): Promise<string[]> }).keys('ps:{c:*')).toEqual([]);

    const live = await createGenerationalRedisStores(await connectRedis(dbUrl, () => {}));
    try {
      const fresh = createMemoryStores();
      await rebuildReadModels({ eventStore, target: fresh });
      expect(await compareReadModels(live, fresh)).toEqual([]);
      expect(await live.readModel.countItems('load')).toBe(ITEMS);
      // Marked caught up before the switch: misses are trusted from the first read on.
      expect(await live.readModel.isCaughtUp()).toBe(true);
    } finally {
      await live.close();
    }
  }, 90_000);
});
