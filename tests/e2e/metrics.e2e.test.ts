// /metrics of a running all-in-one, scraped over HTTP after a stream session (docs/operations.md,
// "Metrics"): the SSE series move, the projector's lag is on the same page and shows a projector
// that is behind, 429s are counted by reason, the backend error series exist. This is the test a
// metric that is defined but never registered fails (the unit tests of the mappings cannot).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '@pubstream/testing';
import { openSse } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import type { AllInOne } from '../../apps/cli/src/allInOne.js';
import { seriesValue } from '../../apps/cli/src/distributed/testing/projectorScrape.js';
import { adminRequest, startClientServer } from './support/clientServer.js';

const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-metrics-'));
let server: AllInOne;
let key: string;

const admin = (method: string, path: string, body?: unknown) => adminRequest(server, method, path, body);
const scrape = async (): Promise<string> => {
  const res = await fetch(`${server.publicUrl}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
};

beforeAll(async () => {
  // A short read-your-writes wait: the last test writes while the projector is stopped (202).
  server = await startClientServer(dataDir, { READ_YOUR_WRITES_TIMEOUT_MS: '200' });
  await admin('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
  await admin('POST', '/admin/collections', { slug: 'news', name: 'News', sortableFields: [] });
  await admin('PUT', '/admin/collections/news/items/headline', { data: { title: 'First' } });
  key = (await adminRequest<{ key: string }>(server, 'POST', '/admin/keys', { name: 'metrics', type: 'test', allowedDomains: [], rateLimit: 1_000 })).key;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('after a stream session: streams, frames sent and fanout latency are non-zero; the stream is not compressed', async () => {
  const stream = await openSse(`${server.publicUrl}/subscribe?apiKey=${key}&dataIds=headline&collections=news`, { 'Accept-Encoding': 'gzip, br' });
  try {
    expect(stream.status).toBe(200);
    expect(stream.headers['content-encoding']).toBeUndefined();
    await stream.waitFor((event) => event.event === 'update' && event.data.dataId === 'headline');
    const open = await scrape();
    expect(seriesValue(open, 'pubstream_sse_streams', { state: 'live' })).toBe(1);
    await admin('PUT', '/admin/collections/news/items/headline', { data: { title: 'Second' } });
    await stream.waitFor((event) => event.event === 'update' && event.data.data?.title === 'Second');
    await eventually('a fanout latency observation', async () => ((seriesValue(await scrape(), 'pubstream_sse_fanout_latency_seconds_count') ?? 0) > 0 ? true : undefined), 5_000);
  } finally {
    stream.close();
  }
  const text = await scrape();
  expect(seriesValue(text, 'pubstream_sse_frames_sent_total')).toBeGreaterThanOrEqual(3);
  expect(seriesValue(text, 'pubstream_sse_fanout_latency_seconds_sum')).toBeGreaterThan(0);
  expect(seriesValue(text, 'pubstream_sse_slow_consumer_cuts_total')).toBe(0);
  await eventually('the stream to be gone', async () => (seriesValue(await scrape(), 'pubstream_sse_streams', { state: 'live' }) === 0 ? true : undefined), 5_000);
});

it('429s are counted by reason', async () => {
  const limited = (await adminRequest<{ key: string }>(server, 'POST', '/admin/keys', { name: 'limited', type: 'test', allowedDomains: [], rateLimit: 1 })).key;
  const read = () => fetch(`${server.publicUrl}/public/data/headline`, { headers: { 'X-API-Key': limited } });
  expect((await read()).status).toBe(200);
  expect((await read()).status).toBe(429);
  const text = await scrape();
  expect(seriesValue(text, 'pubstream_rate_limit_refusals_total', { reason: 'window' })).toBe(1);
  expect(seriesValue(text, 'pubstream_rate_limit_refusals_total', { reason: 'monthly_quota' })).toBe(0);
  expect(seriesValue(text, 'pubstream_backend_errors_total', { backend: 'redis', kind: 'connection' })).toBe(0);
});

it('projector lag: 0 while caught up, positions and seconds behind once the projector falls behind', async () => {
  const caughtUp = await scrape();
  expect(seriesValue(caughtUp, 'pubstream_projector_position', { cursor: 'applied' })).toBeGreaterThan(0);
  expect(seriesValue(caughtUp, 'pubstream_projector_lag_positions', { cursor: 'applied' })).toBe(0);
  await server.projector.stop();
  // Committed to the log; the stopped projector cannot confirm it, so the admin answers 202.
  await admin('PUT', '/admin/collections/news/items/later', { data: { title: 'Unprojected' } });
  await admin('PUT', '/admin/collections/news/items/later2', { data: { title: 'Unprojected too' } });
  const behind = await eventually('a lag of two positions', async () => {
    const text = await scrape();
    return seriesValue(text, 'pubstream_projector_lag_positions', { cursor: 'applied' }) === 2 ? text : undefined;
  }, 5_000);
  expect(seriesValue(behind, 'pubstream_projector_lag_seconds', { cursor: 'applied' })).toBeGreaterThan(0);
  expect(seriesValue(behind, 'pubstream_projector_head_position')).toBe((seriesValue(behind, 'pubstream_projector_position', { cursor: 'applied' }) ?? 0) + 2);
});

it('the Grafana dashboard (infra/grafana/pubstream.json) queries only series this /metrics has', async () => {
  const dashboard = JSON.parse(readFileSync(new URL('../../infra/grafana/pubstream.json', import.meta.url), 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
  const scraped = new Set((await scrape()).split('\n').map((line) => /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line)?.[1]).filter(Boolean));
  const queried = dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => target.expr.match(/\b(?:pubstream|http)_[a-z_]+\b/g) ?? []));
  expect(queried.length).toBeGreaterThanOrEqual(12);
  expect(queried.filter((name) => !scraped.has(name))).toEqual([]);
});
