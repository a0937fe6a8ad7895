// HTTP caching seen from a real browser (docs/public-api.md, "Caching and compression"): headless
// Chromium on a page of another origin reads the public API with a test key. Its own HTTP cache
// revalidates with If-None-Match (and If-Modified-Since) and gets 304; page code revalidates with
// If-Modified-Since alone and with a batch's ETag. The server side records what really went over
// the wire, since a browser hands a revalidated 304 to the page as the cached 200.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser } from '@pubstream/testing';
import { startApiHarness, type ApiHarness } from '../../apps/api/src/testing/apiHarness.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  status: number;
}

let h: ApiHarness;
let api: Server;
let apiUrl: string;
let site: Server;
let siteUrl: string;
let browser: Browser;
let page: Page;
let key: string;
const seen: Seen[] = [];

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** What the page's fetch saw: status, body and the headers CORS lets it read. */
const pageFetch = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string; cache?: RequestCache } = {}) =>
  page.evaluate(
    async ({ url, init }) => {
      const res = await fetch(url, init);
      return { status: res.status, text: await res.text(), etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') };
    },
    { url: `${apiUrl}${path}`, init: { ...init, headers: { 'X-API-Key': key, ...init.headers } } },
  );

const seenFor = (method: string, path: string) => seen.filter((entry) => entry.method === method && entry.url === path);

beforeAll(async () => {
  h = await startApiHarness();
  await h.collection('news');
  await h.item('news', 'headline', { title: 'First headline' }, { updatedAt: '2026-05-06T07:08:09.000Z' });
  await h.item('news', 'second', { title: 'Second' });
  key = (await h.key({ type: 'test' })).raw;
  const callback = h.api.callback();
  api = createServer((req, res) => {
    const entry: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, status: 0 };
    seen.push(entry);
    res.on('finish', () => (entry.status = res.statusCode));
    void callback(req, res);
  });
  apiUrl = await listen(api);
  site = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>news</title>'));
  siteUrl = await listen(site);
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(siteUrl);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => api?.close(resolve));
  await new Promise((resolve) => site?.close(resolve));
  await h?.close();
});

it("the browser's cache revalidates with If-None-Match and If-Modified-Since and gets 304", async () => {
  const first = await pageFetch('/public/data/headline');
  expect(first.status).toBe(200);
  expect(first.lastModified).toBe('Wed, 06 May 2026 07:08:09 GMT');
  const again = await pageFetch('/public/data/headline');
  // The page sees the cached body as a 200; the wire carried a 304.
  expect(again).toEqual(first);
  const wire = seenFor('GET', '/public/data/headline');
  expect(wire.map((entry) => entry.status)).toEqual([200, 304]);
  expect(wire[1]?.headers['if-none-match']).toBe(first.etag);
  expect(wire[1]?.headers['if-modified-since']).toBe(first.lastModified);

  await h.item('news', 'headline', { title: 'Changed headline' }, { updatedAt: '2026-05-06T07:09:00.000Z' });
  const changed = await pageFetch('/public/data/headline');
  expect(JSON.parse(changed.text)).toMatchObject({ data: { title: 'Changed headline' } });
  expect(seenFor('GET', '/public/data/headline').map((entry) => entry.status)).toEqual([200, 304, 200]);
});

it('If-Modified-Since alone, sent by page code: 304 while unchanged', async () => {
  const first = await pageFetch('/public/data/second');
  const since = first.lastModified ?? '';
  const notModified = await pageFetch('/public/data/second', { headers: { 'If-Modified-Since': since }, cache: 'no-store' });
  expect(notModified.status).toBe(304);
  const last = seenFor('GET', '/public/data/second').at(-1);
  expect(last?.headers['if-modified-since']).toBe(since);
  expect(last?.headers['if-none-match']).toBeUndefined();
  expect(last?.status).toBe(304);
});

it('batch answers carry an ETag: the same batch with If-None-Match is 304, a changed one 200', async () => {
  const body = JSON.stringify({ dataIds: ['headline', 'second', 'missing'] });
  const post = (headers: Record<string, string> = {}) => pageFetch('/public/batch', { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers }, cache: 'no-store' });
  const first = await post();
  expect(first.status).toBe(200);
  expect(first.etag).toMatch(/^W\/"/);
  expect((await post({ 'If-None-Match': first.etag ?? '' })).status).toBe(304);
  await h.item('news', 'second', { title: 'Second, revised' });
  const changed = await post({ 'If-None-Match': first.etag ?? '' });
  expect(changed.status).toBe(200);
  expect(changed.etag).not.toBe(first.etag);
  expect(seenFor('POST', '/public/batch').map((entry) => entry.status)).toEqual([200, 304, 200]);
});
