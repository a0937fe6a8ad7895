// Child process of the crash test: appends forever to a SQLite log and prints one line per
// acknowledged append ("<position> <eventId>"), only after the append returned. The test kills it
// with SIGKILL at a random moment. Run: node --import tsx sqliteAppendLoop.ts <file>
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import { openSqliteDatabase } from '../openSqliteDatabase.js';
import { createSqliteEventStore } from '../sqliteEventStore.js';

const path = process.argv[2];
if (!path) throw new Error('usage: sqliteAppendLoop.ts <database file>');

const store = createSqliteEventStore(openSqliteDatabase(path));
const revisions = new Map<string, number>();
// Synchronous writes: a printed line means the append had returned before the next one started.
// stdout is a non-blocking pipe: when the test reads slowly (a loaded machine) it is full and
// writeSync throws EAGAIN, so wait a millisecond and write the rest.
const pause = new Int32Array(new SharedArrayBuffer(4));
const acknowledge = (position: number, eventId: string): void => {
  const line = Buffer.from(`${position} ${eventId}\n`);
  for (let written = 0; written < line.length; ) {
    try {
      written += writeSync(1, line, written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
};

for (let i = 0; ; i += 1) {
  const streamName = `item-crash-${i % 7}`;
  const batchId = randomUUID();
  // Every third append carries several events: the test checks a batch is all in or all out.
  const size = i % 3 === 0 ? 3 : 1;
  const events = Array.from({ length: size }, (_, n) => ({
    eventId: `${batchId}-${n}`,
    type: 'CrashTestEvent',
    data: { i, n, padding: 'x'.repeat(200) },
    metadata: { batchId, size },
  }));
  const expectedRevision = revisions.get(streamName) ?? 'no_stream';
  const result = await store.appendToStream(streamName, events, { expectedRevision });
  revisions.set(streamName, result.nextRevision);
  acknowledge(result.position, events.at(-1)?.eventId ?? '');
}
