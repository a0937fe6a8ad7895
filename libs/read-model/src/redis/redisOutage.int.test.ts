import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, expect, it } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis } from './redisConnection.js';
import { createRedisStores } from './redisStores.js';
import { itemRecord } from '../testing/index.js';

// Runs where the suite has Redis; it starts its own redis-server (the shared one must not be killed).
describeWithBackend('redis', 'redis stores during an outage', () => {
  const port = 20_000 + Math.floor(Math.random() * 10_000);
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    for await (const chunk of server.stdout!) {
      output += String(chunk);
      if (output.includes('Ready to accept connections')) break;
    }
  };
  const stop = async () => {
    if (!server || server.exitCode !== null) return;
    const exited = once(server, 'exit');
    server.kill('SIGKILL');
    await exited;
  };
  afterAll(stop);

  it('rejects calls while Redis is down, never hangs or crashes, and recovers by itself', async () => {
    await start();
    const errors: Error[] = [];
    const client = await connectRedis(`redis://127.0.0.1:${port}`, (error) => errors.push(error));
    const stores = createRedisStores(client, { namespace: 'outage' });
    const { readModel: rm, projections } = stores;
    await projections.apply([{ kind: 'item.put', item: itemRecord('a', 'c', 1) }], { projection: 'p', position: 1 });
    expect((await rm.getItem('a'))?.dataId).toBe('a');

    await stop();
    await expect(rm.getItem('a')).rejects.toThrow();
    await expect(rm.getItems(['a', 'b'])).rejects.toThrow();
    await expect(projections.apply([{ kind: 'item.put', item: itemRecord('b', 'c', 1) }], { projection: 'p', position: 2 })).rejects.toThrow();
    await expect(stores.ping()).rejects.toThrow();
    expect(errors.length).toBeGreaterThan(0);

    await start();
    // The client reconnects on its own (capped backoff); the fresh server has lost the scripts too.
    for (let i = 0; i < 100; i++) {
      if (await stores.ping().then(() => true, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await stores.ping();
    expect(await projections.apply([{ kind: 'item.put', item: itemRecord('b', 'c', 1) }], { projection: 'p', position: 2 })).toEqual([true]);
    expect((await rm.getCollectionPage('c', { sort: 'dataId', order: 'asc', offset: 0, limit: 10 }))).toBeNull();
    expect((await rm.getItem('b'))?.dataId).toBe('b');
    await stores.close();
  });
});
