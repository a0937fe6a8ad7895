import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser, LaunchOptions } from 'playwright-core';

const chromiumPath = '/usr/bin/chromium';

/** Flags that keep a headless Chromium quiet and offline on a CI machine (no sandbox: we run as root). */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** Installs Debian's chromium when it is missing and we are root (playwright cannot download browsers here). */
const ensureChromium = (): void => {
  if (existsSync(chromiumPath)) return;
  if (process.getuid?.() !== 0) throw new Error(`${chromiumPath} is missing: install Debian's chromium (apt-get install -y chromium)`);
  // The same lock as infra/local's scripts: parallel apt-get runs would fight over dpkg's lock.
  const install = 'apt-get -o DPkg::Lock::Timeout=300 update -qq && apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium';
  const result = spawnSync('flock', [`${process.env.TMPDIR ?? '/tmp'}/pubstream-apt.lock`, 'sh', '-c', `[ -x ${chromiumPath} ] || { ${install}; }`], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) throw new Error(`apt-get install chromium failed (exit ${result.status ?? result.signal})`);
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} still missing after apt-get install chromium`);
};

/**
 * A headless Debian Chromium driven by playwright-core, for browser tests. Each launch gets a fresh,
 * temporary user-data-dir (playwright creates one per `launch()` and deletes it on `close()`).
 * Close it in `afterAll`: `const browser = await launchBrowser(); … await browser.close()`.
 */
export const launchBrowser = async (options: Omit<LaunchOptions, 'executablePath'> = {}): Promise<Browser> => {
  ensureChromium();
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    headless: true,
    ...options,
    executablePath: chromiumPath,
    args: [...chromiumArgs, ...(options.args ?? [])],
  });
};
