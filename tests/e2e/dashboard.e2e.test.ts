// The operator dashboard in headless Chromium against the all-in-one process: sign in with the
// admin token, create a key (shown once), use it on the public API, watch its request count rise,
// delete it (with confirmation) and see the public API refuse it. Then the ways in that must fail:
// a wrong token, and forged requests from another origin or without the CSRF token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '@pubstream/testing';
import { startAllInOne, type AllInOne } from '@pubstream/cli';

let service: AllInOne;
let browser: Browser;

beforeAll(async () => {
  service = await startAllInOne({ demo: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

// Console errors (a CSP violation would be one: a style or script without its nonce) fail the test.
const consoleErrors: string[] = [];

const signIn = async (context: BrowserContext): Promise<Page> => {
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(`${service.adminUrl}/`);
  await page.getByLabel('Admin token').fill(service.adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
  return page;
};

const readItem = (key: string) => fetch(`${service.publicUrl}/public/data/welcome`, { headers: { 'X-API-Key': key } });

const keyRow = (page: Page, name: string) => page.locator('tbody tr', { has: page.getByRole('rowheader', { name, exact: true }) });

describe('dashboard', () => {
  it('creates a key shown once, counts its requests, and deletes it so the public API answers 401', async () => {
    expect(service.publicUrl).not.toBe('');
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await signIn(context);

    await page.getByLabel('Name').fill('Browser test key');
    await page.getByRole('radio', { name: /Live/ }).check();
    await page.getByLabel('Allowed domains').fill('');
    await page.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByTestId('new-key');
    const key = await shown.inputValue();
    expect(key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    await expect.poll(() => page.getByText('it will not be shown again').count()).toBe(1);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const row = keyRow(page, 'Browser test key');
    await expect.poll(() => row.locator('code').first().textContent()).toBe(`pk_live_…${key.slice(-4)}`);

    // Read once: a reload shows the table, never the key again.
    await page.reload();
    expect(await page.getByTestId('new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    for (let i = 0; i < 3; i++) expect((await readItem(key)).status).toBe(200);
    // The API flushes usage counts about every second: reload until the table shows them.
    await expect
      .poll(
        async () => {
          await page.reload();
          return Number((await row.getByTestId('request-count').textContent())?.replace(/\D/g, ''));
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(3);
    expect(await row.locator('time').count()).toBe(2); // created and last used are dates now

    await row.getByRole('link', { name: /^Delete/ }).click();
    await page.getByRole('heading', { name: 'Delete key “Browser test key”?' }).waitFor();
    expect((await readItem(key)).status).toBe(200); // nothing happens before the confirmation
    await page.getByRole('button', { name: 'Delete this key' }).click();
    await page.getByRole('status').filter({ hasText: 'was deleted' }).waitFor();
    expect(await keyRow(page, 'Browser test key').count()).toBe(0);

    const refused = await readItem(key);
    expect(refused.status).toBe(401);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('sends the security headers, and marks the cookie Secure behind an HTTPS proxy', async () => {
    const page = await fetch(`${service.adminUrl}/dashboard/sign-in`);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'nonce-[^']+'; script-src 'nonce-[^']+';.*frame-ancestors 'none'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const signInVia = (proto: string) =>
      fetch(`${service.adminUrl}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `${proto}://${new URL(service.adminUrl).host}`, 'x-forwarded-proto': proto },
        body: `token=${encodeURIComponent(service.adminToken)}`,
      });
    const viaHttps = await signInVia('https');
    expect(viaHttps.status).toBe(303);
    expect(viaHttps.headers.get('set-cookie')).toMatch(/^pubstream_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    expect((await signInVia('http')).headers.get('set-cookie')).not.toContain('Secure');
  });

  it('refuses a wrong admin token with a clear message and sets no cookie', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${service.adminUrl}/dashboard/sign-in`);
    await page.getByLabel('Admin token').fill('not-the-admin-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('That admin token is not correct');
    expect(await context.cookies()).toEqual([]);
    await page.goto(`${service.adminUrl}/dashboard/keys`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await context.close();
  });

  it('shows the validation message of each bad domain and keeps what was typed', async () => {
    const context = await browser.newContext();
    const page = await signIn(context);
    const before = (await service.admin.listKeys()).length;
    await page.getByLabel('Name').fill('Bad domains');
    await page.getByLabel('Allowed domains').fill('example.com, https://shop.example.com, a*.example.com');
    await page.getByLabel(/Rate limit/).fill('999999999');
    await page.getByRole('button', { name: 'Create key' }).click();
    const errors = page.locator('#create-domains-error li');
    await expect.poll(() => errors.allTextContents()).toEqual([
      'Invalid allowed domain "https://shop.example.com": enter a host name without a scheme, e.g. example.com.',
      'Invalid allowed domain "a*.example.com": a wildcard is only allowed as a leading "*." (e.g. *.example.com).',
    ]);
    expect(await page.locator('#create-rate-error').textContent()).toContain('at most');
    expect(await page.getByLabel('Allowed domains').inputValue()).toBe('example.com, https://shop.example.com, a*.example.com');
    expect((await service.admin.listKeys()).length).toBe(before);
    await context.close();
  });

  it('edits a key\'s domains and rate limit; the public API applies the new whitelist', async () => {
    const created = await service.admin.createKey({ name: 'Editable', type: 'test', allowedDomains: [] });
    const key = created.value.key ?? '';
    const context = await browser.newContext();
    const page = await signIn(context);
    await keyRow(page, 'Editable').getByRole('link', { name: /^Edit/ }).click();
    await page.getByLabel('Allowed domains').fill('shop.example.com, *.example.org');
    await page.getByLabel(/Rate limit/).fill('250');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'was saved' }).waitFor();
    const row = keyRow(page, 'Editable');
    expect(await row.locator('.domains code').allTextContents()).toEqual(['shop.example.com', '*.example.org']);
    expect(await row.locator('td.num').first().textContent()).toBe('250');
    const from = (origin: string) => fetch(`${service.publicUrl}/public/data/welcome`, { headers: { 'X-API-Key': key, Origin: origin } });
    expect((await from('https://shop.example.com')).status).toBe(200);
    expect((await from('https://elsewhere.example.net')).status).toBe(403);
    await context.close();
  });

  it('switches the plan, and refuses a downgrade below a key\'s rate limit with the reason', async () => {
    const context = await browser.newContext();
    const page = await signIn(context);
    await page.getByRole('link', { name: 'Plan' }).click();
    await page.getByLabel('New plan').selectOption('enterprise');
    await page.getByRole('button', { name: 'Switch plan' }).click();
    await page.getByRole('status').filter({ hasText: 'enterprise plan' }).waitFor();
    expect((await service.admin.getPlan()).plan).toBe('enterprise');
    // Keys have the business default of 5,000 requests: the free plan allows 100.
    await page.getByLabel('New plan').selectOption('free');
    await page.getByRole('button', { name: 'Switch plan' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain("above the free plan's maximum of 100");
    expect((await service.admin.getPlan()).plan).toBe('enterprise');
    await page.getByLabel('New plan').selectOption('business');
    await page.getByRole('button', { name: 'Switch plan' }).click();
    await page.getByRole('status').filter({ hasText: 'business plan' }).waitFor();
    await context.close();
  });

  it('signs out: the old session cookie opens nothing any more', async () => {
    const context = await browser.newContext();
    const page = await signIn(context);
    const [cookie] = await context.cookies(service.adminUrl);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    const reused = await fetch(`${service.adminUrl}/dashboard/keys`, { headers: { cookie: `pubstream_session=${cookie?.value}` }, redirect: 'manual' });
    expect(reused.status).toBe(303);
    expect(reused.headers.get('location')).toBe('/dashboard/sign-in');
    await context.close();
  });

  it('works with the keyboard alone: sign in, skip link, create a key', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${service.adminUrl}/dashboard/sign-in`);
    // The token field gets focus on arrival (autofocus, applied once the page has rendered); Enter submits.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('admin-token');
    await page.keyboard.type(service.adminToken);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.getByLabel('Name').focus();
    await page.keyboard.type('Keyboard key');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('new-key').inputValue()).toMatch(/^pk_live_/);
    await context.close();
  });

  describe('forged requests', () => {
    let evil: Server;
    let evilUrl: string;
    let victimKeyId: string;
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      victimKeyId = (await service.admin.createKey({ name: 'Victim key', type: 'live', allowedDomains: [] })).value.keyId;
      // Another origin on the same host (another port): same-site, so SameSite=Strict alone would
      // still send the cookie; the Origin check must refuse it.
      evil = createServer((_req, res) => {
        res.setHeader('content-type', 'text/html');
        res.end(`<!doctype html><title>evil</title>
<form id="f" method="post" action="${service.adminUrl}/dashboard/keys/${victimKeyId}/delete"><input type="hidden" name="csrf" value="guess"></form>
<script>document.getElementById('f').submit()</script>`);
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
      context = await browser.newContext();
      page = await signIn(context);
    });
    afterAll(async () => {
      await context?.close();
      await new Promise((resolve) => evil?.close(resolve));
    });

    const victimStillThere = async () => (await service.admin.listKeys()).some((key) => key.keyId === victimKeyId);

    it('refuses a form posted by a page of another origin, even with the session cookie', async () => {
      const [response] = await Promise.all([
        page.waitForResponse((res) => res.url().includes(`/dashboard/keys/${victimKeyId}/delete`)),
        page.goto(evilUrl),
      ]);
      expect(response.status()).toBe(403);
      expect(await response.request().headerValue('cookie')).toContain('pubstream_session=');
      expect(await victimStillThere()).toBe(true);
    });

    it('refuses a same-origin post without the CSRF token, and a foreign Origin even with it', async () => {
      const [cookie] = await context.cookies(service.adminUrl);
      expect(cookie).toMatchObject({ name: 'pubstream_session', httpOnly: true, sameSite: 'Strict' });
      const csrf = await page.goto(`${service.adminUrl}/dashboard/keys`).then(() => page.locator('input[name=csrf]').first().inputValue());
      const post = (origin: string, body: string) =>
        fetch(`${service.adminUrl}/dashboard/keys/${victimKeyId}/delete`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: `pubstream_session=${cookie?.value}`, origin, 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
      expect((await post(service.adminUrl, '')).status).toBe(403);
      expect((await post(service.adminUrl, 'csrf=wrong')).status).toBe(403);
      expect((await post(evilUrl, `csrf=${encodeURIComponent(csrf)}`)).status).toBe(403);
      expect(await victimStillThere()).toBe(true);
      // The same request from the dashboard's own origin with the token goes through.
      expect((await post(service.adminUrl, `csrf=${encodeURIComponent(csrf)}`)).status).toBe(303);
      expect(await victimStillThere()).toBe(false);
    });
  });
});
