import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from './eventStore.js';
import { openSqliteDatabase } from './openSqliteDatabase.js';
import { createSqliteEventStore } from './sqliteEventStore.js';
import { collect } from './testing/subscriptionProbe.js';

const appendLoop = fileURLToPath(new URL('./testing/sqliteAppendLoop.ts', import.meta.url));

/** Runs the append loop, kills it with SIGKILL some time after its first acknowledged append. */
const appendUntilKilled = (path: string, killAfterMs: number): Promise<Map<number, string>> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', appendLoop, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged = new Map<number, string>();
    let pending = '';
    let stderr = '';
    let killTimer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? ''; // a line cut by the kill was not acknowledged
      for (const line of lines) {
        const [position, eventId] = line.split(' ');
        acknowledged.set(Number(position), eventId ?? '');
      }
      killTimer ??= setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(killTimer);
      if (signal === 'SIGKILL') resolve(acknowledged);
      else reject(new Error(`append loop exited on its own (${String(_code)}): ${stderr}`));
    });
  });

const expectContiguous = (numbers: number[], first: number): void => {
  expect(numbers).toEqual(numbers.map((_, i) => first + i));
};

describe('sqlite event store survives SIGKILL of a writer', () => {
  for (let run = 1; run <= 4; run += 1) {
    it(`run ${run}: every acknowledged append is in the log, positions and revisions are contiguous`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pubstream-crash-'));
      try {
        const path = join(dir, 'events.db');
        const killAfterMs = 300 + Math.floor(Math.random() * 1200);
        const acknowledged = await appendUntilKilled(path, killAfterMs);
        expect(acknowledged.size).toBeGreaterThan(0);

        const db = openSqliteDatabase(path);
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const store = createSqliteEventStore(db);
        const log = await collect(store.readAll());
        expectContiguous(
          log.map((e) => e.position),
          1,
        );
        const byPosition = new Map(log.map((e) => [e.position, e.eventId]));
        for (const [position, eventId] of acknowledged) expect(byPosition.get(position)).toBe(eventId);

        const streams = new Map<string, RecordedEvent[]>();
        for (const e of log) streams.set(e.streamName, [...(streams.get(e.streamName) ?? []), e]);
        for (const events of streams.values()) expectContiguous(events.map((e) => e.revision), 0);

        // A multi-event append is all in or all out.
        const batches = new Map<unknown, { size: unknown; count: number }>();
        for (const e of log) {
          const entry = batches.get(e.metadata.batchId) ?? { size: e.metadata.size, count: 0 };
          entry.count += 1;
          batches.set(e.metadata.batchId, entry);
        }
        for (const { size, count } of batches.values()) expect(count).toBe(size);
        await store.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
