// Child process of the cross-process bench: follows a SQLite log as the projector does and, for every
// `Tick` event, records the time from the `ts` the writer put in it to its arrival here. On the `Stop`
// event it waits 1.5 s, stays idle for the given seconds, then prints one JSON line {latencies, idleCpuMs, idleMs}.
// Run: node --import tsx logFollower.ts <file> <watch|poll200> <idleSeconds>
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';

const [path, mode, idleText] = process.argv.slice(2);
if (!path || (mode !== 'watch' && mode !== 'poll200')) throw new Error('usage: logFollower.ts <file> <watch|poll200> <idleSeconds>');

// poll200 is the store before issue 20: a full read of the log every 200 ms, nothing in between.
const store = createSqliteEventStore(
  openSqliteDatabase(path),
  mode === 'watch' ? {} : { watchOtherProcesses: false, fallbackReadMs: 200 },
);
const latencies: number[] = [];
const head = await store.headPosition();
const finished = new Promise<void>((resolve) => {
  store.subscribeToAll({ after: head }, async (events) => {
    const arrived = Date.now();
    for (const event of events) {
      if (event.type === 'Tick') latencies.push(arrived - (event.data as { ts: number }).ts);
      if (event.type === 'Stop') resolve();
    }
  });
});
process.stdout.write('FOLLOWING\n');
await finished;
// Past the watch's fast-check window after the last write: what an idle process pays.
await new Promise((resolve) => setTimeout(resolve, 1_500));
const idleMs = Number(idleText ?? '5') * 1000;
const before = process.cpuUsage();
await new Promise((resolve) => setTimeout(resolve, idleMs));
const used = process.cpuUsage(before);
process.stdout.write(`${JSON.stringify({ latencies, idleCpuMs: (used.user + used.system) / 1000, idleMs })}\n`);
await store.close();
