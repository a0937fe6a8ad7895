import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { openSqliteDatabase } from './openSqliteDatabase.js';
import { createSqliteEventStore } from './sqliteEventStore.js';
import { probeSubscription } from './testing/subscriptionProbe.js';

const writerScript = fileURLToPath(new URL('./testing/sqliteContendingWriter.ts', import.meta.url));

const runWriter = (path: string, stream: string, count: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, path, stream, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`writer exited with ${String(code)}: ${output}`))));
  });

it('processes sharing one SQLite file never both take a revision, and only ever see ConcurrencyError', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-multiproc-'));
  try {
    const path = join(dir, 'events.db');
    // Create the schema first so the writers race on appends, not on setup.
    await createSqliteEventStore(openSqliteDatabase(path)).close();
    const outputs = await Promise.all([1, 2, 3].map(() => runWriter(path, 'item-shared', 40)));
    for (const output of outputs) expect(output).toMatch(/^done \d+\n$/);

    const store = createSqliteEventStore(openSqliteDatabase(path));
    const events = await store.readStream('item-shared');
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(await store.headPosition()).toBe(120);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a live subscriber sees every append of other processes once, in order, woken by data_version and not by the fallback read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-multiproc-'));
  const path = join(dir, 'events.db');
  // The fallback read is an hour away: only the data_version watch can deliver within the wait.
  const reader = createSqliteEventStore(openSqliteDatabase(path), { fallbackReadMs: 3_600_000 });
  try {
    const probe = probeSubscription(reader, { after: 0, batchSize: 7 });
    await probe.until(() => true);
    const outputs = await Promise.all([1, 2, 3].map((n) => runWriter(path, `item-writer-${n}`, 30)));
    for (const output of outputs) expect(output).toMatch(/^done 0\n$/);
    const events = await probe.until((received) => received.length >= 90, 20_000);
    expect(events.map((e) => e.position)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
    for (const n of [1, 2, 3]) {
      expect(events.filter((e) => e.streamName === `item-writer-${n}`).map((e) => e.revision)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    }
  } finally {
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
