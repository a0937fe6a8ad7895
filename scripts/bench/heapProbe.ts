// `node --expose-gc --import tsx scripts/bench/heapProbe.ts [items]`: where the embedded process's
// memory goes (docs/BENCHMARKS.md, RSS after the HTTP load). Starts the all-in-one in this process
// (one API process, a SQLite log in a temporary folder), imports `items` items, runs 10 s of GET
// item load, and prints RSS and V8 heap after a full GC at each step, with the heap's largest
// object groups by constructor from a heap snapshot.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { startAllInOne } from '../../apps/cli/src/allInOne.js';
import { adminCall, createBenchKeys, importItems } from './adminClient.js';
import { runLoad } from './httpLoad.js';

const items = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const step = (label: string) => {
  gc?.();
  const usage = process.memoryUsage();
  console.log(`${label}: RSS ${mb(usage.rss)}, heap used ${mb(usage.heapUsed)}, external ${mb(usage.external)} (array buffers ${mb(usage.arrayBuffers)})`);
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'pubstream-heap-'));
const aio = await startAllInOne({
  env: { PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', EVENT_STORE_URL: `sqlite:${dir}/events.db`, LOG_LEVEL: 'silent', API_WORKERS: '1', MAX_CONNECTIONS_PER_ADDRESS: '0' },
});
try {
  const service = { publicUrl: aio.publicUrl, adminUrl: aio.adminUrl, adminToken: aio.adminToken } as Parameters<typeof importItems>[0];
  step('started');
  const [key] = await createBenchKeys(service, 1);
  await adminCall(service, 'POST', '/collections', { slug: 'bench', name: 'Bench', sortableFields: [{ name: 'score', type: 'number' }] });
  await importItems(service, 'bench', 0, items);
  step(`after importing ${items.toLocaleString('en-US')} items`);
  await runLoad(aio.publicUrl, { path: '/public/data/item-0004242', headers: { 'X-API-Key': key ?? '' } }, { connections: 100, durationSeconds: 10 });
  step('after 10 s of GET item (100 conn)');
  const snapshot = v8.getHeapSnapshot();
  const chunks: Buffer[] = [];
  for await (const chunk of snapshot) chunks.push(chunk as Buffer);
  const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = parsed.snapshot.meta.node_fields;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const types = parsed.snapshot.meta.node_types[0];
  const groups = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < parsed.nodes.length; i += fields.length) {
    const type = types[parsed.nodes[i + typeAt] ?? 0] ?? '?';
    const name = type === 'object' || type === 'closure' ? (parsed.strings[parsed.nodes[i + nameAt] ?? 0] ?? '?') : `(${type})`;
    const group = groups.get(name) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += parsed.nodes[i + sizeAt] ?? 0;
    groups.set(name, group);
  }
  console.log('largest groups of the heap (self size):');
  for (const [name, group] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 15)) {
    console.log(`  ${mb(group.bytes).padStart(7)}  ${group.count.toLocaleString('en-US').padStart(10)}  ${name.slice(0, 80)}`);
  }
} finally {
  await aio.stop();
  rmSync(dir, { recursive: true, force: true });
}
