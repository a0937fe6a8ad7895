import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { connectRedis, createMemoryStores, createRedisStores, type RedisReadModelClient, type Stores } from '@pubstream/read-model';
import { describeWithBackend } from '@pubstream/testing';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { compareReadModels } from './compareReadModels.js';
import { createProjector, type Projector } from './projector.js';
import { rebuildReadModels } from './rebuild.js';
import { append, snapshot, uuidOf, writeHistory } from './testing/history.js';
import { createTestChangeStream } from './testing/testChangeStream.js';

describeWithBackend('redis', 'projector on a Redis read model', (url) => {
  let client: RedisReadModelClient;
  const namespace = () => `proj-test-${Math.random().toString(36).slice(2, 10)}`;
  const running: Projector[] = [];
  const children: ChildProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-projector-'));

  beforeAll(async () => {
    client = await connectRedis(url, () => {});
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  afterAll(async () => {
    await (client as unknown as { quit(): Promise<unknown> }).quit?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (...args: Parameters<typeof createProjector>): Projector => {
    const projector = createProjector(...args);
    running.push(projector);
    projector.start();
    return projector;
  };

  it('projects the history; replaying the whole log again changes nothing', async () => {
    const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'), { pollIntervalMs: 20 });
    const stores = createRedisStores(client, { namespace: namespace() });
    const { changeStream } = await createTestChangeStream();
    const head = await writeHistory(eventStore);
    expect(await start({ eventStore, stores, changeStream }).waitFor(head, 10_000)).toBe(true);
    const before = await snapshot(stores);
    expect(before.items.map((i) => i?.version ?? null)).toEqual([1, 0, null, null]);
    expect(await start({ eventStore, stores, changeStream, name: 'replay', batchSize: 2 }).waitFor(head, 10_000)).toBe(true);
    expect(await snapshot(stores)).toEqual(before);

    const fresh = createMemoryStores();
    await rebuildReadModels({ eventStore, target: fresh });
    expect(await compareReadModels(stores, fresh)).toEqual([]);
  });

  it('after the read model lost its data, exactly one projector stays active and the model is rebuilt (issue 23 #6)', async () => {
    const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'), { pollIntervalMs: 20 });
    const ns = namespace();
    const stores = createRedisStores(client, { namespace: ns });
    const { changeStream } = await createTestChangeStream();
    const head = await writeHistory(eventStore);
    const a = start({ eventStore, stores, changeStream, lease: { holder: 'a', ttlMs: 2_000 } });
    expect(await a.waitFor(head, 10_000)).toBe(true);
    // b polls much more often than a renews (every 500 ms): it takes the lease first after the wipe.
    const b = start({ eventStore, stores, changeStream, lease: { holder: 'b', ttlMs: 2_000, pollMs: 20 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([a.snapshot().active, b.snapshot().active]).toEqual([true, false]);

    // FLUSHALL as far as this namespace goes, in one atomic DEL: the lease, its token counter,
    // checkpoints, records.
    const direct = client as unknown as { keys(pattern: string): Promise<string[]>; del(keys: string[]): Promise<number> };
    await direct.del(await direct.keys(`${ns}:*`));
    const deadline = Date.now() + 5_000;
    while (!b.snapshot().active && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    // a learns it at its next renewal or write, within 500 ms; before the fix its renewal with the
    // same token number still matched and both applied.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect([a.snapshot().active, b.snapshot().active]).toEqual([false, true]);
    expect(await b.waitFor(head, 10_000)).toBe(true);
    const fresh = createMemoryStores();
    await rebuildReadModels({ eventStore, target: fresh });
    expect(await compareReadModels(stores, fresh)).toEqual([]);
    await eventStore.close();
  });

  it('SIGKILL of the active projector process during writes: the standby takes over, nothing lost, equal to a rebuild', async () => {
    const file = join(dir, `events-${Date.now()}.db`);
    const eventStore = createSqliteEventStore(openSqliteDatabase(file), { pollIntervalMs: 20 });
    const ns = namespace();
    const stores: Stores = createRedisStores(client, { namespace: ns });
    await append(eventStore, 'collection-load', 'CollectionCreated', { slug: 'load', name: 'Load', sortableFields: [] });

    const script = fileURLToPath(new URL('./testing/projectorProcess.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, file, url, ns, 'process-a', '1000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += String(chunk)));
    const deadline = Date.now() + 20_000;
    while (!output.includes('active')) {
      if (Date.now() > deadline) throw new Error('child projector never became active');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const { changeStream, received } = await createTestChangeStream();
    const standby = start({ eventStore, stores, changeStream, batchSize: 5, lease: { holder: 'standby-b', ttlMs: 1000, pollMs: 100 } });

    let head = 0;
    for (let i = 0; i < 120; i++) {
      const dataId = `x${i % 30}`;
      const type = i < 30 ? 'ItemCreated' : 'ItemUpdated';
      const data = type === 'ItemCreated' ? { id: uuidOf(i + 1), dataId, collection: 'load', data: { i } } : { dataId, collection: 'load', data: { i } };
      head = await append(eventStore, `item-${dataId}`, type, data);
      if (i === 60) {
        // The child has applied some of the writes by now; kill it mid-stream, lease still held.
        while ((await stores.projections.getCheckpoint('projector')) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }

    expect(await standby.waitFor(head, 20_000)).toBe(true);
    expect((await standby.status()).state).toBe('running');
    const rebuilt = createMemoryStores();
    await rebuildReadModels({ eventStore, target: rebuilt });
    expect(await compareReadModels(stores, rebuilt)).toEqual([]);
    // Every update after the kill reached the standby's subscribers, in version order per item.
    const lastVersions = new Map<string, number>();
    for (const m of received) {
      if (m.kind !== 'item') continue;
      expect(m.version).toBeGreaterThan(lastVersions.get(m.dataId) ?? -1);
      lastVersions.set(m.dataId, m.version);
    }
    for (let k = 0; k < 30; k++) expect(lastVersions.get(`x${k}`)).toBe(3);
    await eventStore.close();
  }, 60_000);
  it('a rebuild killed with SIGKILL halfway resumes from its checkpoint and ends with the same result', async () => {
    const file = join(dir, `rebuild-${Date.now()}.db`);
    const eventStore = createSqliteEventStore(openSqliteDatabase(file));
    await append(eventStore, 'collection-load', 'CollectionCreated', { slug: 'load', name: 'Load', sortableFields: [] });
    const batch = [];
    for (let i = 0; i < 3000; i++) {
      const dataId = `y${i % 1000}`;
      batch.push({
        streamName: `item-${dataId}`,
        expectedRevision: 'any' as const,
        events: [i < 1000 ? { type: 'ItemCreated', data: { id: uuidOf(i + 1), dataId, collection: 'load', data: { i } } } : { type: 'ItemUpdated', data: { dataId, collection: 'load', data: { i } } }],
      });
    }
    await eventStore.appendToStreams(batch);
    const head = await eventStore.headPosition();
    const ns = namespace();
    const target = createRedisStores(client, { namespace: ns });

    const script = fileURLToPath(new URL('./testing/rebuildProcess.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, file, url, ns, '20'], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    const exited = once(child, 'exit');
    let output = '';
    child.stdout?.on('data', (chunk) => (output += String(chunk)));
    const deadline = Date.now() + 30_000;
    // Kill it once it has applied a quarter of the log.
    while ((await target.projections.getCheckpoint('projector')) < head / 4) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`rebuild did not progress as expected: ${output.slice(-200)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill('SIGKILL');
    await exited;
    expect(output).not.toContain('finished');
    const reached = await target.projections.getCheckpoint('projector');
    expect(reached).toBeLessThan(head);

    const resumed = await rebuildReadModels({ eventStore, target, batchSize: 200 });
    expect(resumed.resumedFrom).toBe(reached);
    expect(resumed.position).toBe(head);
    const fresh = createMemoryStores();
    await rebuildReadModels({ eventStore, target: fresh });
    expect(await compareReadModels(fresh, target)).toEqual([]);
    expect(await target.readModel.countItems('load')).toBe(1000);
    await eventStore.close();
  }, 60_000);
  it('Redis going down stops the projector advancing without crashing; it resumes by itself and loses nothing', async () => {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const redisDir = mkdtempSync(join(dir, 'redis-'));
    let server: ChildProcess | undefined;
    const startRedis = async (): Promise<void> => {
      server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', redisDir], { stdio: ['ignore', 'pipe', 'ignore'] });
      children.push(server);
      let out = '';
      for await (const chunk of server.stdout as AsyncIterable<Buffer>) {
        out += String(chunk);
        if (out.includes('Ready to accept connections')) break;
      }
    };
    const stopRedis = async (): Promise<void> => {
      if (!server || server.exitCode !== null) return;
      const exited = once(server, 'exit');
      server.kill('SIGKILL');
      await exited;
    };
    await startRedis();
    const ownClient = await connectRedis(`redis://127.0.0.1:${port}`, () => {});
    const stores = createRedisStores(ownClient, { namespace: 'outage' });
    const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'), { pollIntervalMs: 20 });
    const { changeStream, received } = await createTestChangeStream();
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (_o: object, msg: string) => void errors.push(msg) };
    const projector = start({ eventStore, stores, changeStream, logger, retry: { initialMs: 50, maxMs: 200 } });
    const first = await writeHistory(eventStore);
    expect(await projector.waitFor(first, 10_000)).toBe(true);

    await stopRedis();
    const during = await append(eventStore, 'item-a2', 'ItemUpdated', { dataId: 'a2', collection: 'news', data: { rank: 42 } });
    expect(await projector.waitFor(during, 500)).toBe(false);
    const deadline = Date.now() + 10_000;
    while (errors.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors.length).toBeGreaterThan(0);

    await startRedis();
    expect(await projector.waitFor(during, 20_000)).toBe(true);
    expect((await stores.readModel.getItem('a2'))?.data).toEqual({ rank: 42 });
    const fresh = createMemoryStores();
    await rebuildReadModels({ eventStore, target: fresh });
    expect(await compareReadModels(stores, fresh)).toEqual([]);
    while (!received.some((m) => m.kind === 'item' && m.dataId === 'a2' && m.version === 1) && Date.now() < deadline + 10_000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.filter((m) => m.kind === 'item' && m.dataId === 'a2' && m.version === 1).length).toBeGreaterThan(0);
    await projector.stop();
    await (ownClient as unknown as { quit(): Promise<unknown> }).quit?.().catch(() => {});
    await stopRedis();
  }, 60_000);
});
