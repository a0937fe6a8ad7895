// Child process of the cold-start test: for each round, waits until the shared start instant of
// that round (spinning for the last milliseconds, so sibling processes open within about one
// millisecond of each other), opens a brand-new log file and appends one event to it.
// Prints one line per failed round and "done <failures>"; exits 0 either way.
// Run: node --import tsx sqliteColdStarter.ts <dir> <rounds> <startAtEpochMs> <roundMs>
import { join } from 'node:path';
import { openSqliteDatabase } from '../openSqliteDatabase.js';
import { createSqliteEventStore } from '../sqliteEventStore.js';

const [dir, roundsText, startText, roundMsText] = process.argv.slice(2);
if (!dir || !roundsText || !startText || !roundMsText) throw new Error('usage: sqliteColdStarter.ts <dir> <rounds> <startAtEpochMs> <roundMs>');

const waitUntil = async (at: number): Promise<void> => {
  const coarse = at - Date.now() - 5;
  if (coarse > 0) await new Promise((resolve) => setTimeout(resolve, coarse));
  while (Date.now() < at) {
    // spin: setTimeout alone is too coarse to line processes up within a millisecond
  }
};

let failures = 0;
for (let round = 0; round < Number(roundsText); round++) {
  await waitUntil(Number(startText) + round * Number(roundMsText));
  try {
    const store = createSqliteEventStore(openSqliteDatabase(join(dir, `round-${round}.db`)));
    await store.appendToStream(`item-p${process.pid}`, [{ type: 'Opened', data: { round } }], { expectedRevision: 'any' });
    await store.close();
  } catch (error) {
    failures++;
    process.stdout.write(`round ${round}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
process.stdout.write(`done ${failures}\n`);
