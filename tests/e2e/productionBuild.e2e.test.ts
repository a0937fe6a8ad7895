// The production build (docs/architecture.md, "How TypeScript runs"): `npm run build` emits one
// JavaScript file for the `pubstream` bin, and plain `node` runs it, with no TypeScript loader in
// the process, from any working directory.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const cliDir = join(ROOT, 'apps', 'cli');
const scratch = mkdtempSync(join(tmpdir(), 'pubstream-built-'));
let child: ChildProcess | undefined;
let banner = '';

const manifest = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { bin?: Record<string, string>; dependencies?: Record<string, string> };

beforeAll(async () => {
  // Only the CLI's build: the client's build (also part of `npm run build`) is exercised elsewhere
  // and writes the same folder as tests/e2e/client.browser.e2e.test.ts.
  await promisify(execFile)('npm', ['run', 'build', '--workspace', '@pubstream/cli'], { cwd: ROOT, timeout: 120_000 });
  child = spawn(process.execPath, [join(cliDir, 'dist', 'pubstream.mjs'), 'start'], {
    cwd: scratch,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: join(scratch, 'data'), PORT: '0', HOST: '127.0.0.1', ADMIN_PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`the built pubstream did not come up:\n${banner}`)), 60_000);
    const onData = (chunk: Buffer) => {
      banner += chunk.toString('utf8');
      if (/Try it:[\s\S]*\n\n/.test(banner)) {
        clearTimeout(timer);
        resolvePromise();
      }
    };
    child?.stdout?.on('data', onData);
    child?.stderr?.on('data', onData);
    child?.once('exit', (code) => reject(new Error(`the built pubstream exited with ${code}:\n${banner}`)));
  });
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolvePromise) => child?.once('exit', resolvePromise));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(scratch, { recursive: true, force: true });
});

it('makes the bin of @pubstream/cli an executable JavaScript file', () => {
  const bin = manifest(join(cliDir, 'package.json')).bin?.pubstream;
  expect(bin).toBe('./dist/pubstream.mjs');
  const file = join(cliDir, bin ?? '');
  accessSync(file, constants.X_OK);
  expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
});

it('runs under plain node: no loader on the command line or in NODE_OPTIONS', () => {
  const pid = child?.pid;
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  expect(cmdline).toEqual([process.execPath, join(cliDir, 'dist', 'pubstream.mjs'), 'start']);
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  expect(environ.filter((entry) => entry.startsWith('NODE_OPTIONS='))).toEqual([]);
});

it('imports at run time only production dependencies, and no TypeScript loader', () => {
  const runtime = JSON.parse(readFileSync(join(cliDir, 'dist', 'runtime-packages.json'), 'utf8')) as string[];
  const production = Object.keys(manifest(join(ROOT, 'package.json')).dependencies ?? {});
  expect(runtime.filter((name) => !production.includes(name))).toEqual([]);
  expect(production).not.toContain('tsx');
  const code = readFileSync(join(cliDir, 'dist', 'pubstream.mjs'), 'utf8');
  expect(code).not.toMatch(/from\s+["'][^"']*\.ts["']|from\s+["']tsx["']/);
});

it('serves the demo data and the health probe', async () => {
  const publicUrl = /public API\s+(\S+)/.exec(banner)?.[1];
  const key = /(pk_test_[0-9A-Za-z]{32})/.exec(banner)?.[1];
  expect(publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const health = await fetch(`${publicUrl}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });
  const page = await fetch(`${publicUrl}/public/collections/demo/data`, { headers: { 'X-API-Key': key ?? '' } });
  expect(page.status).toBe(200);
  const body = (await page.json()) as { total: number; data: { dataId: string }[] };
  expect(body.total).toBe(4);
  expect(body.data.map((item) => item.dataId)).toContain('teapot');
  // The API reference: its document, and its renderer, found from the built file (no CDN).
  expect(((await (await fetch(`${publicUrl}/openapi.json`)).json()) as { openapi: string }).openapi).toBe('3.1.0');
  const renderer = await fetch(`${publicUrl}/docs/redoc.standalone.js`);
  expect(renderer.status).toBe(200);
  expect((await renderer.text()).length).toBeGreaterThan(100_000);
});
