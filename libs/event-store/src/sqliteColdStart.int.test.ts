import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { EventLogOpenError } from './eventLogOpenError.js';
import { openSqliteDatabase } from './openSqliteDatabase.js';
import { createSqliteEventStore } from './sqliteEventStore.js';

const starterScript = fileURLToPath(new URL('./testing/sqliteColdStarter.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pubstream-coldstart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runStarter = (rounds: number, startAt: number, roundMs: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', starterScript, dir, String(rounds), String(startAt), String(roundMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`starter exited with ${String(code)}: ${output}`))));
  });

// Admin, projector, standby and API node may all open a new log in the same millisecond. SQLite
// does not apply its busy handler to the switch to WAL, which failed 23 of 30 such starts.
it('several processes opening one brand-new log in the same millisecond all succeed, every time', async () => {
  const rounds = 30;
  // Far enough ahead for every child to have loaded before the first round.
  const startAt = Date.now() + 4_000;
  const outputs = await Promise.all([1, 2, 3, 4].map(() => runStarter(rounds, startAt, 80)));
  expect(outputs).toEqual(outputs.map(() => 'done 0\n'));
  for (let round = 0; round < rounds; round++) {
    const store = createSqliteEventStore(openSqliteDatabase(join(dir, `round-${round}.db`)));
    expect(await store.headPosition()).toBe(4);
    await store.close();
  }
}, 60_000);

it('a corrupt log file is refused with one line naming the file and what to do', () => {
  const path = join(dir, 'corrupt.db');
  writeFileSync(path, 'this is not a database, just text that a careless copy left here '.repeat(100));
  let caught: unknown;
  try {
    openSqliteDatabase(path);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(EventLogOpenError);
  const message = (caught as Error).message;
  expect(message).toContain(path);
  expect(message).toMatch(/restore it from a backup/);
  expect(message).not.toContain('\n');
});
