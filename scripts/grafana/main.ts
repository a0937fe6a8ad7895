// Renders docs/screenshots/grafana-dashboard.png: the panels of infra/grafana/pubstream.json with
// values scraped from a real running `pubstream start` (all-in-one, in this process) under a
// scripted load: SSE streams, writes, reads, a key over its rate limit, and the projector stopped
// for a few seconds. Grafana itself cannot be installed here (no apt or npm package), so each
// panel's PromQL is evaluated over the scrapes by scripts/grafana/panels.ts and drawn as a static
// page in headless Chromium. Run: node --import tsx scripts/grafana/main.ts
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startAllInOne } from '@pubstream/cli';
import { launchBrowser } from '@pubstream/testing';
import { evaluatePanels } from './panels.js';
import { parseScrape, type Scrape } from './promText.js';
import { renderDashboard } from './render.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dashboard = JSON.parse(readFileSync(`${root}infra/grafana/pubstream.json`, 'utf8')) as Parameters<typeof renderDashboard>[0];
const SECONDS = 45;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const service = await startAllInOne({
  env: { PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', EVENT_STORE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', READ_YOUR_WRITES_TIMEOUT_MS: '50' },
});
const admin = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(service.adminUrl + path, { method, headers: { Authorization: `Bearer ${service.adminToken}`, 'Content-Type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) });
  return (await res.json().catch(() => ({}))) as { key?: string };
};
await admin('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
await admin('POST', '/admin/collections', { slug: 'news', name: 'News', sortableFields: [] });
for (let i = 0; i < 30; i++) await admin('PUT', `/admin/collections/news/items/story-${i}`, { data: { title: `Story ${i}`, body: 'text '.repeat(40) } });
const key = (await admin('POST', '/admin/keys', { name: 'site', type: 'test', allowedDomains: [], rateLimit: 50_000 })).key ?? '';
if (!key) throw new Error('could not create the key');
const limited = (await admin('POST', '/admin/keys', { name: 'widget', type: 'test', allowedDomains: [], rateLimit: 60 })).key ?? '';

let running = true;
const streams: AbortController[] = [];
const openStream = async (): Promise<void> => {
  const abort = new AbortController();
  streams.push(abort);
  const res = await fetch(`${service.publicUrl}/subscribe?apiKey=${key}&dataIds=story-1,story-2&collections=news`, { signal: abort.signal });
  const reader = res.body?.getReader();
  while (reader) if ((await reader.read().catch(() => ({ done: true }))).done) break;
};
const loop = async (every: number, work: () => Promise<unknown>) => {
  while (running) {
    await work().catch(() => undefined);
    await sleep(every);
  }
};
const get = (path: string, apiKey: string) => fetch(service.publicUrl + path, { headers: { 'X-API-Key': apiKey } }).then((res) => res.arrayBuffer());
let version = 0;
const load = [
  loop(120, () => admin('PUT', `/admin/collections/news/items/story-${1 + (version++ % 2)}`, { data: { title: `Update ${version}` } })),
  ...Array.from({ length: 6 }, () => loop(5, () => get('/public/data/story-3', key))),
  loop(20, () => get('/public/collections/news/data?limit=20', key)),
  loop(40, () => fetch(`${service.publicUrl}/public/batch`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ dataIds: ['story-4', 'story-5'] }) })),
  loop(150, () => get('/public/data/story-6', limited)),
];

const scrapes: Scrape[] = [];
for (let second = 0; second < SECONDS; second++) {
  if (second === 3) for (let i = 0; i < 25; i++) void openStream().catch(() => undefined);
  if (second === 20) await service.projector.stop();
  if (second === 27) service.projector.start();
  if (second === 34) for (const abort of streams.splice(0, 10)) abort.abort();
  scrapes.push(parseScrape(await (await fetch(`${service.publicUrl}/metrics`)).text(), Date.now()));
  await sleep(1_000);
}
running = false;
for (const abort of streams) abort.abort();
await Promise.allSettled(load);

const note =
  'Not Grafana: the panels of infra/grafana/pubstream.json, each PromQL evaluated by scripts/grafana/panels.ts over /metrics scraped once a second from a real pubstream start ' +
  '(25 streams from 0:03, 10 closed at 0:34; writes every 120 ms; a key over its 60/min limit; the projector stopped 0:20–0:27). In-memory profile: no Redis or Kafka, so no backend errors.';
const html = renderDashboard(dashboard, evaluatePanels(scrapes), scrapes.map((s) => s.at), note);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1416, height: 900 } });
  await page.setContent(html);
  await page.screenshot({ path: `${root}docs/screenshots/grafana-dashboard.png`, fullPage: true });
} finally {
  await browser.close();
  await service.stop();
}
console.log(`wrote docs/screenshots/grafana-dashboard.png from ${scrapes.length} scrapes`);
