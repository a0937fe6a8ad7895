import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { ServiceUnavailableError } from '@pubstream/domain';
import { openSqliteDatabase } from './openSqliteDatabase.js';
import { createSqliteEventStore } from './sqliteEventStore.js';

// Issue 23 (every call a request waits on is bounded): another connection holds the log's write
// lock longer than the busy timeout. The append gives up after it, as a 503 that wrote nothing.

it('an append that cannot get the write lock within the busy timeout is ServiceUnavailableError and writes nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-busy-'));
  const path = join(dir, 'events.db');
  const store = createSqliteEventStore(openSqliteDatabase(path, { busyTimeoutMs: 150 }));
  const other = new Database(path);
  try {
    other.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const attempt = store.appendToStream('item-a', [{ type: 'ItemCreated', data: { n: 1 } }], { expectedRevision: 'no_stream' });
    await expect(attempt).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(attempt).rejects.toThrow(/nothing was written/);
    // Bounded by the busy timeout, not by the other transaction (generous slack for a loaded machine).
    expect(performance.now() - started).toBeLessThan(2_000);
    other.exec('ROLLBACK');
    expect(await store.headPosition()).toBe(0);
    await expect(store.appendToStream('item-a', [{ type: 'ItemCreated', data: { n: 1 } }], { expectedRevision: 'no_stream' })).resolves.toMatchObject({ position: 1 });
  } finally {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
