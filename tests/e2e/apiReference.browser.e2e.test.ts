// The /docs reference pages of both ports in headless Chromium: Redoc, served by the process
// itself (no CDN), renders the served /openapi.json under the page's Content-Security-Policy
// without a violation, and shows the routes. Screenshots go to .tmp/screenshots (to
// docs/screenshots/ with PUBSTREAM_UPDATE_SCREENSHOTS=1).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '@pubstream/testing';
import type { AllInOne } from '../../apps/cli/src/allInOne.js';
import { startClientServer } from './support/clientServer.js';

const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-api-reference-'));
const shotsDir = fileURLToPath(new URL(process.env.PUBSTREAM_UPDATE_SCREENSHOTS === '1' ? '../../docs/screenshots/' : '../../.tmp/screenshots/', import.meta.url));
let server: AllInOne;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(shotsDir, { recursive: true });
  server = await startClientServer(dataDir);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const openReference = async (base: string, screenshot: string, expected: readonly string[]) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  const outside: string[] = [];
  page.on('console', (message) => {
    // Redoc's sidebar links its logo from its CDN: the CSP refuses it on purpose (the image hides itself).
    if (message.type() === 'error' && !message.text().includes('https://cdn.redoc.ly/redoc/logo-mini.svg')) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  // What came back from elsewhere (a request the CSP refused gets no response).
  page.on('response', (response) => {
    const url = response.url();
    if (!url.startsWith(base) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  try {
    const response = await page.goto(`${base}/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    // Redoc has rendered the document once the operations have their headings.
    for (const summary of expected) await page.locator('h2').filter({ hasText: summary }).first().waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(shotsDir, screenshot) });
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  } finally {
    await page.close();
  }
};

describe('the API reference pages (/docs) in headless Chromium', () => {
  it('the public port: Redoc renders the public API, no CSP violation, nothing fetched from elsewhere', async () => {
    await openReference(server.publicUrl, 'api-reference-public.png', ['Get one item', 'Get up to 100 items at once', 'Live changes as Server-Sent Events']);
  }, 60_000);

  it('the admin port: the same for the admin API, without the admin token', async () => {
    await openReference(server.adminUrl, 'api-reference-admin.png', ['Create a collection', 'Import items from NDJSON', 'Create an API key']);
  }, 60_000);
});
