import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPubstreamProcess, type StartedProcess } from './support/startProcess.js';

// Issue 15, finding 2: one NDJSON line of 512 MiB without a newline killed the whole service
// (RangeError in readline) after pushing its RSS past 1 GB. Against the real `pubstream start`
// process over real HTTP: it must live, stay under 400 MB, and write the file's other lines.

const MiB = 1024 * 1024;
const HUGE_LINE_BYTES = 512 * MiB;
const RSS_BOUND_BYTES = 400 * 1000 * 1000;

let proc: StartedProcess;

beforeAll(async () => {
  proc = await startPubstreamProcess();
}, 90_000);
afterAll(async () => {
  await proc?.stop();
});

const admin = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${proc.adminUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${proc.adminToken}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
};

/**
 * POSTs an import whose body is `head`, then `hugeBytes` of one line without a newline, streamed
 * in 1 MiB pieces of one reused buffer (the test never holds the line), with backpressure.
 */
const importWithHugeLine = (slug: string, head: string, hugeBytes: number): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const url = new URL(`${proc.adminUrl}/admin/collections/${slug}/items:import`);
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { Authorization: `Bearer ${proc.adminToken}`, 'Content-Type': 'application/x-ndjson' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const piece = Buffer.alloc(MiB, 'x'.charCodeAt(0));
    let sent = 0;
    const pump = () => {
      while (sent < hugeBytes) {
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.write(head);
    pump();
  });

describe('NDJSON import with one 512 MiB line and no newline', () => {
  it('the process lives, its RSS stays under 400 MB, and the other lines are written', async () => {
    expect((await admin('POST', '/admin/collections', { slug: 'huge', name: 'Huge' })).status).toBe(201);
    let sampledPeak = 0;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, proc.memory().rss)), 100);
    const head = '{"dataId":"before-1","data":{"n":1}}\n{"dataId":"before-2","data":{"n":2}}\n';
    const answer = await importWithHugeLine('huge', head, HUGE_LINE_BYTES)
      .catch((error: unknown) => ({ status: 0, text: String(error) }))
      .finally(() => clearInterval(sampler));

    expect(proc.isRunning(), `the server died:\n${proc.output().slice(-2_000)}`).toBe(true);
    const { peak } = proc.memory();
    expect(Math.max(peak, sampledPeak)).toBeLessThan(RSS_BOUND_BYTES);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({
      lines: 3,
      created: 2,
      updated: 0,
      unchanged: 0,
      failed: 1,
      errors: [{ line: 3, message: 'Line is longer than 1 MiB' }],
    });
    expect((await admin('GET', '/admin/collections/huge/items/before-1')).body).toMatchObject({ dataId: 'before-1', data: { n: 1 } });
    expect((await admin('GET', '/admin/collections/huge/items/before-2')).body).toMatchObject({ dataId: 'before-2', data: { n: 2 } });
    expect((await fetch(`${proc.publicUrl}/healthz`)).status).toBe(200);
  }, 180_000);
});
