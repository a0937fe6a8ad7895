// `npm run bench [-- --quick]`: starts what it measures, loads it on 127.0.0.1 only for a bounded
// time, stops everything, prints a table of ratios against baselines measured in the same run.
import { startChild } from './childProcess.js';
import { runLoad } from './httpLoad.js';
import { cpuMicrosPerRequest, processCpuSeconds } from './processCpu.js';
import { renderTable, writeResults, type BenchRow } from './report.js';
import { runPeers } from './peers/peerScenarios.js';
import { runScenarios } from './scenarios.js';

const quick = process.argv.includes('--quick');
const peers = process.argv.includes('--peers');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const seconds = quick ? 3 : 10;
const numberFlag = (name: string): number | undefined => {
  const value = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  return value === undefined ? undefined : Number(value);
};
const bareSubscribers = process.argv.includes('--bare-subscribers');
const fanout = { subscribers: numberFlag('subscribers'), writesPerSecond: numberFlag('writes') };
const startedAt = new Date();
const rows: BenchRow[] = [];
const notes: string[] = [];

const baseline = async (name: string, entry: string, path: string): Promise<void> => {
  const server = await startChild(entry, [], { ready: /LISTENING (\d+)/ });
  try {
    const url = `http://127.0.0.1:${server.match[1]}`;
    await runLoad(url, { path }, { connections: 100, durationSeconds: 1 }); // warm-up
    const cpuBefore = processCpuSeconds(server.child.pid);
    const result = await runLoad(url, { path }, { connections: 100, durationSeconds: seconds });
    const cpuMicros = cpuMicrosPerRequest(cpuBefore, processCpuSeconds(server.child.pid), result.total);
    notes.push(`${name}: ${Math.round(cpuMicros)} µs server CPU per request`);
    rows.push({
      scenario: name,
      profile: 'baseline',
      unit: 'req/s',
      value: result.requestsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      peakRssMb: server.peakRssBytes() / 2 ** 20,
    });
    console.log(`  ${name}: ${Math.round(result.requestsPerSecond)} req/s, ${Math.round(cpuMicros)} µs CPU/req`);
  } finally {
    await server.stop();
  }
};

console.log(`Pubstream benchmarks (${quick ? 'quick' : 'full'}), loopback only, ${seconds} s per load`);
if (peers) await runPeers({ quick, seconds, rows, notes, only });
else {
  if (!only || only === 'baseline' || only.startsWith('hotpath')) {
    await baseline('node:http hello (100 conn)', 'scripts/bench/baselines/nodeHello.ts', '/');
    await baseline('koa hello (100 conn)', 'scripts/bench/baselines/koaHello.ts', '/hello');
  }
  await runScenarios({ quick, seconds, rows, notes, only, fanout, bareSubscribers });
}

// A partial run (--only) never replaces the table of the last complete one.
const tableFile = only ? null : peers ? 'docs/BENCHMARKS-peers.md' : 'docs/BENCHMARKS-table.md';
const flags = [
  quick ? '--quick' : '',
  peers ? '--peers' : '',
  only ? `--only=${only}` : '',
  fanout.subscribers === undefined ? '' : `--subscribers=${fanout.subscribers}`,
  fanout.writesPerSecond === undefined ? '' : `--writes=${fanout.writesPerSecond}`,
  bareSubscribers ? '--bare-subscribers' : '',
]
  .filter(Boolean)
  .join(' ');
console.log('\n' + renderTable(rows));
writeResults(rows, { quick, command: `npm run bench${flags ? ` -- ${flags}` : ''}`, startedAt, notes }, tableFile);
console.log(`\nwrote bench-results/latest.json${quick || !tableFile ? '' : ` and ${tableFile}`}`);
