import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './launchBrowser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

it('runs a page with JavaScript in headless Debian Chromium', async () => {
  const page = await browser.newPage();
  await page.setContent('<button id="b" onclick="this.textContent = String(6 * 7)">go</button>');
  await page.click('#b');
  expect(await page.textContent('#b')).toBe('42');
});
