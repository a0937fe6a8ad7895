// Child process of the multi-process test: appends `count` events to one stream shared with other
// writer processes, each time expecting the revision it last read, re-reading and retrying on a
// conflict. Prints "done <conflicts>" and exits 0; any other error exits non-zero.
// Run: node --import tsx sqliteContendingWriter.ts <file> <stream> <count>
import { ConcurrencyError } from '@pubstream/domain';
import { openSqliteDatabase } from '../openSqliteDatabase.js';
import { createSqliteEventStore } from '../sqliteEventStore.js';

const [path, streamName, countText] = process.argv.slice(2);
if (!path || !streamName || !countText) throw new Error('usage: sqliteContendingWriter.ts <file> <stream> <count>');

const store = createSqliteEventStore(openSqliteDatabase(path, { busyTimeoutMs: 10_000 }));
let conflicts = 0;
for (let written = 0; written < Number(countText); ) {
  const last = (await store.readStream(streamName)).at(-1);
  try {
    await store.appendToStream(streamName, [{ type: 'Counted', data: { pid: process.pid, written } }], {
      expectedRevision: last ? last.revision : 'no_stream',
    });
    written += 1;
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error;
    conflicts += 1;
  }
}
await store.close();
process.stdout.write(`done ${conflicts}\n`);
