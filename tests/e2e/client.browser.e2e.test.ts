// The BUILT browser bundle of @pubstream/client in headless Chromium: a page served from
// http://127.0.0.1:PORT watches an item in reactive mode and shows its value; a write through the
// admin API must appear on the page. Also checks that CORS lets the page read with a test key.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser } from '@pubstream/testing';
import type { AllInOne } from '../../apps/cli/src/allInOne.js';
import { adminRequest, createTestKey, startClientServer } from './support/clientServer.js';

const clientDir = fileURLToPath(new URL('../../libs/client/', import.meta.url));
const bundlePath = join(clientDir, 'dist', 'npm', 'browser', 'pubstream-client.js');
const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-client-browser-'));

const page = `<!doctype html>
<meta charset="utf-8">
<title>pubstream client</title>
<p>Title: <span id="title">loading</span></p>
<p>Fetched: <span id="fetched">loading</span></p>
<script type="module">
  import { createClient } from '/pubstream-client.js';
  const params = new URLSearchParams(location.search);
  const client = createClient({ baseUrl: params.get('api'), apiKey: params.get('key'), reactive: true });
  client.watchData('headline', (item) => {
    document.getElementById('title').textContent = item ? item.data.title : '(deleted)';
  });
  client.fetchData('headline').then(
    (item) => (document.getElementById('fetched').textContent = item.data.title),
    (error) => (document.getElementById('fetched').textContent = error.name + ': ' + error.message),
  );
</script>`;

let server: AllInOne;
let site: HttpServer;
let siteUrl: string;
let browser: Browser;

const admin = (method: string, path: string, body?: unknown) => adminRequest(server, method, path, body);

beforeAll(async () => {
  // The test uses what a consumer gets: the bundle `npm run build` emits.
  execFileSync(process.execPath, [join(clientDir, 'scripts', 'build.mjs')], { stdio: 'pipe' });
  const bundle = readFileSync(bundlePath);
  site = createServer((req, res) => {
    if (req.url?.startsWith('/pubstream-client.js')) {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await startClientServer(dataDir);
  await admin('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
  await admin('POST', '/admin/collections', { slug: 'news', name: 'News', sortableFields: [] });
  await admin('PUT', '/admin/collections/news/items/headline', { data: { title: 'First headline' } });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => site?.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

it('shows an item’s value changing live when it is written through the admin API', async () => {
  // A test key: 127.0.0.1 is always allowed for test keys, so the page's origin passes CORS.
  const key = await createTestKey(server, 'browser');
  const tab = await browser.newPage();
  const problems: string[] = [];
  tab.on('pageerror', (error) => problems.push(error.message));
  await tab.goto(`${siteUrl}?api=${encodeURIComponent(server.publicUrl)}&key=${encodeURIComponent(key)}`);

  await expect.poll(() => tab.textContent('#title'), { timeout: 15_000 }).toBe('First headline');
  // fetchData from the page: the CORS preflight for X-API-Key and the real response both pass.
  await expect.poll(() => tab.textContent('#fetched'), { timeout: 15_000 }).toBe('First headline');

  await admin('PUT', '/admin/collections/news/items/headline', { data: { title: 'Breaking: it works' } });
  await expect.poll(() => tab.textContent('#title'), { timeout: 15_000 }).toBe('Breaking: it works');

  await admin('DELETE', '/admin/collections/news/items/headline');
  await expect.poll(() => tab.textContent('#title'), { timeout: 15_000 }).toBe('(deleted)');
  expect(problems).toEqual([]);
  await tab.close();
}, 60_000);
