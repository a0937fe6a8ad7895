import http from 'node:http';
import { createParser } from 'eventsource-parser';
import { adminCall, createBenchKeys, importItems } from './adminClient.js';
import type { BenchRow } from './report.js';
import type { ScenarioContext } from './scenarioContext.js';
import { startEmbeddedService } from './service.js';
import { percentile } from './sseLoad.js';

const CLIENTS = 1_000;
const ITEMS = 1_000;
const WATCHED = 100;
const CHANGES = 100;
const itemId = (i: number) => `item-${String(i).padStart(7, '0')}`;

/** What one stream cost until its `ready`: bytes received, time, and the id to resume from. */
interface Start {
  readonly bytes: number;
  readonly ms: number;
  readonly id: string;
}

/** Opens one stream and reads it until `ready`, counting every byte; then closes it. */
const readUntilReady = (url: string, agent: http.Agent, lastEventId?: string): Promise<Start> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    let bytes = 0;
    let id = '';
    const request = http.get(url, { agent, headers: lastEventId ? { 'Last-Event-ID': lastEventId } : {} }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`subscribe answered ${response.statusCode}`));
      const parser = createParser({
        onEvent: (event) => {
          if (event.id !== undefined) id = event.id;
          if (event.event !== 'ready') return;
          resolve({ bytes, ms: performance.now() - started, id });
          request.destroy();
        },
      });
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        parser.feed(chunk.toString('utf8'));
      });
    });
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
  });

/** Every client once, 100 at a time: per-client costs and the wall time of the whole wave. */
const connectAll = async (urls: readonly string[], ids?: readonly string[]): Promise<{ starts: Start[]; wallMs: number }> => {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const starts: Start[] = new Array(urls.length);
  const begun = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 100 }, async () => {
      while (next < urls.length) {
        const index = next++;
        starts[index] = await readUntilReady(urls[index] as string, agent, ids?.[index]);
      }
    }),
  );
  agent.destroy();
  return { starts, wallMs: performance.now() - begun };
};

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/**
 * `npm run bench -- --only=resume`: what a resume costs next to a fresh connect (issue 17). 1,000
 * clients each watch 100 of 1,000 items and their collection; all connect (snapshot + ready), then
 * 100 items change, then all resume with their last id (Last-Event-ID). Bytes sent and time to
 * `ready`, in the same run.
 */
export const runResumeScenario = async (context: ScenarioContext): Promise<void> => {
  console.log('\nResume vs fresh connect (embedded profile)');
  const service = await startEmbeddedService();
  try {
    const [key] = await createBenchKeys(service, 1);
    await adminCall(service, 'POST', '/collections', { slug: 'bench', name: 'Bench', sortableFields: [] });
    await importItems(service, 'bench', 0, ITEMS);
    const urls = Array.from({ length: CLIENTS }, (_, c) => {
      const dataIds = Array.from({ length: WATCHED }, (_, k) => itemId((c * 37 + k * 10) % ITEMS));
      return `${service.publicUrl}/subscribe?apiKey=${encodeURIComponent(key ?? '')}&collections=bench&dataIds=${dataIds.join(',')}`;
    });
    const fresh = await connectAll(urls);
    for (let n = 0; n < CHANGES; n++) {
      await adminCall(service, 'PUT', `/collections/bench/items/${itemId((n * 7919) % ITEMS)}`, { data: { title: `Changed ${n}`, score: n, tag: 'changed' } });
    }
    const resumed = await connectAll(urls, fresh.starts.map((start) => start.id));
    const freshBytes = sum(fresh.starts.map((s) => s.bytes));
    const resumeBytes = sum(resumed.starts.map((s) => s.bytes));
    const rows: BenchRow[] = [
      {
        scenario: `SSE fresh connect: ${CLIENTS.toLocaleString('en-US')} clients × (${WATCHED} items + page 1), snapshot until ready: bytes`,
        profile: 'embedded',
        unit: 'KB/stream',
        value: freshBytes / CLIENTS / 1024,
        p50Ms: percentile(fresh.starts.map((s) => s.ms), 50),
        p99Ms: percentile(fresh.starts.map((s) => s.ms), 99),
        note: `all ${CLIENTS} in ${(fresh.wallMs / 1000).toFixed(2)} s (100 at a time)`,
      },
      {
        scenario: `SSE resume after ${CHANGES} changes: the same ${CLIENTS.toLocaleString('en-US')} clients with Last-Event-ID, until ready: bytes`,
        profile: 'embedded',
        unit: 'KB/stream',
        value: resumeBytes / CLIENTS / 1024,
        p50Ms: percentile(resumed.starts.map((s) => s.ms), 50),
        p99Ms: percentile(resumed.starts.map((s) => s.ms), 99),
        baseline: 'fresh connect bytes',
        ratio: resumeBytes / freshBytes,
        note: `all ${CLIENTS} in ${(resumed.wallMs / 1000).toFixed(2)} s: ${(resumed.wallMs / fresh.wallMs).toFixed(2)}× the fresh connects' time`,
      },
    ];
    for (const row of rows) {
      context.rows.push(row);
      console.log(`  ${row.scenario}: ${row.value.toFixed(1)} ${row.unit}${row.ratio === undefined ? '' : ` (${row.ratio.toFixed(3)}× fresh)`}; ${row.note}`);
    }
  } finally {
    await service.stop();
  }
};
