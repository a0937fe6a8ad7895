// Regenerates the dashboard screenshots in docs/screenshots/ (keys page, new key, usage chart,
// plan): an all-in-one process with the demo seed, a few keys, and 30 days of synthetic usage.
// Run: node --import tsx scripts/screenshots.ts
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startAllInOne } from '@pubstream/cli';
import { launchBrowser } from '@pubstream/testing';

const outDir = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
mkdirSync(outDir, { recursive: true });

// A fixed "now" so the pictures do not change from run to run.
const NOW = Date.parse('2026-11-23T15:20:00.000Z');
const service = await startAllInOne({ demo: true, now: () => new Date(NOW) });
const browser = await launchBrowser();
try {
  const admin = service.admin;
  const website = await admin.createKey({ name: 'Website (production)', type: 'live', allowedDomains: ['example.com', '*.example.com'], rateLimit: 2_000 });
  const mobile = await admin.createKey({ name: 'Mobile app', type: 'live', allowedDomains: [] });
  await admin.createKey({ name: 'Staging', type: 'test', allowedDomains: ['staging.example.net', 'localhost'], rateLimit: 500 });

  // Daily shape: office-hours peak, weekends lower, slow growth over the month; deterministic.
  const counts: { keyId: string; at: Date; count: number }[] = [];
  const hours = 30 * 24;
  for (let h = hours; h >= 0; h--) {
    const at = new Date(NOW - h * 3_600_000);
    const hour = at.getUTCHours();
    const weekend = at.getUTCDay() === 0 || at.getUTCDay() === 6;
    const daily = Math.exp(-((hour - 14) ** 2) / 18);
    const growth = 1 + (hours - h) / hours;
    const wobble = 0.85 + 0.3 * Math.abs(Math.sin(h * 1.7));
    const base = (weekend ? 0.55 : 1) * growth * wobble;
    counts.push({ keyId: website.value.keyId, at, count: Math.round(40 + 420 * daily * base) });
    counts.push({ keyId: mobile.value.keyId, at, count: Math.round(25 + 160 * Math.exp(-((hour - 19) ** 2) / 10) * base) });
  }
  await service.stores.usage.recordUsage(counts);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${service.adminUrl}/dashboard/sign-in`);
  await page.screenshot({ path: `${outDir}/sign-in.png` });
  await page.getByLabel('Admin token').fill(service.adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();

  await page.screenshot({ path: `${outDir}/keys.png`, fullPage: true });

  await page.getByLabel('Name').fill('Partner integration');
  await page.getByLabel('Allowed domains').fill('partner.example.org');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByTestId('new-key').waitFor();
  await page.locator('#new-key').screenshot({ path: `${outDir}/new-key.png` });

  await page.goto(`${service.adminUrl}/dashboard/usage?key=${website.value.keyId}`);
  await page.screenshot({ path: `${outDir}/usage.png`, fullPage: true });
  await page.goto(`${service.adminUrl}/dashboard/plan`);
  await page.screenshot({ path: `${outDir}/plan.png`, fullPage: true });
  await page.goto(`${service.adminUrl}/dashboard/collections`);
  await page.screenshot({ path: `${outDir}/collections.png` });
  console.log(`screenshots written to ${outDir}`);
} finally {
  await browser.close();
  await service.stop();
}
