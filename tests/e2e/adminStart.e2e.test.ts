import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start` as a user runs it: `node --import tsx apps/cli/src/main.ts start` in a fresh data
// directory, on free ports, read back from what it prints.

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-start-'));
const children = new Set<ChildProcess>();

interface Started {
  child: ChildProcess;
  output: () => string;
  adminUrl: string;
  publicUrl: string | null;
  adminToken: string | null;
  demoKey: string | null;
}

const start = (args: string[] = [], env: Record<string, string> = {}): Promise<Started> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'start', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: join(dataDir, 'data'), PORT: '0', HOST: '127.0.0.1', ADMIN_PORT: '0', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let text = '';
    const timer = setTimeout(() => reject(new Error(`pubstream start did not come up:\n${text}`)), 60_000);
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!text.includes('admin API')) return;
      // The banner is written in one piece; wait for its closing blank line.
      if (!/\n\n$/.test(text) && !text.includes('\n\n\n')) return;
      clearTimeout(timer);
      resolvePromise({
        child,
        output: () => text,
        adminUrl: /admin API\s+(\S+)/.exec(text)?.[1] ?? '',
        publicUrl: /public API\s+(\S+)/.exec(text)?.[1] ?? null,
        adminToken: /admin token (\S+)/.exec(text)?.[1] ?? null,
        demoKey: /(pk_test_[0-9A-Za-z]{32})/.exec(text)?.[1] ?? null,
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pubstream start exited with ${code}:\n${text}`));
    });
  });

const stop = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> =>
  new Promise((resolvePromise) => {
    child.once('exit', (code) => {
      children.delete(child);
      resolvePromise(code);
    });
    child.kill(signal);
  });

/** Runs a one-shot CLI command to completion. */
const runCli = (args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('exit', (code) => resolvePromise({ code, stdout, stderr }));
  });

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('pubstream start (npm start)', () => {
  let adminToken = '';
  let demoKey = '';

  it('on first start creates its data directory, seeds the demo and prints a generated admin token and the demo key', async () => {
    const started = await start();
    expect(started.output()).toMatch(/event log\s+\S+events\.db \(empty: a new log, starting with no data\)/);
    expect(started.adminToken).toMatch(/^adm_/);
    expect(started.demoKey).toMatch(/^pk_test_/);
    expect(started.output()).toContain('curl -H "X-API-Key: ');
    adminToken = started.adminToken ?? '';
    demoKey = started.demoKey ?? '';

    const collection = await fetch(`${started.adminUrl}/admin/collections/demo`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(collection.status).toBe(200);
    expect(await collection.json()).toMatchObject({ slug: 'demo', itemCount: 4 });
    const keys = (await (await fetch(`${started.adminUrl}/admin/keys`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as {
      data: { maskedKey: string; type: string }[];
    };
    expect(keys.data).toEqual([expect.objectContaining({ type: 'test', maskedKey: `pk_test_…${demoKey.slice(-4)}` })]);

    // The curl line it printed, as a user would paste it.
    expect(started.output()).toContain(`curl -H "X-API-Key: ${demoKey}" ${started.publicUrl}/public/collections/demo/data`);
    const page = await fetch(`${started.publicUrl}/public/collections/demo/data`, { headers: { 'X-API-Key': demoKey } });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ total: 4, page: 1 });
    expect(await stop(started.child)).toBe(0);
  });

  it('on restart keeps its data (read models rebuilt from the log), seeds nothing and uses the configured token', async () => {
    const token = 'a-configured-admin-token-1234';
    const started = await start([], { ADMIN_TOKEN: token });
    expect(started.adminToken).toBeNull();
    expect(started.demoKey).toBeNull();
    expect(started.output()).toMatch(/event log\s+\S+events\.db \(head position \d+\)/);
    expect(started.output()).not.toContain(token);
    const collection = await fetch(`${started.adminUrl}/admin/collections/demo`, { headers: { authorization: `Bearer ${token}` } });
    expect(await collection.json()).toMatchObject({ slug: 'demo', itemCount: 4 });
    const item = await fetch(`${started.publicUrl}/public/data/welcome`, { headers: { 'X-API-Key': demoKey } });
    expect(item.status).toBe(200);
    expect(await item.json()).toMatchObject({ dataId: 'welcome', collectionId: 'demo' });

    // The CLI tools against the running service.
    const cliEnv = { ADMIN_URL: started.adminUrl, ADMIN_TOKEN: token };
    const file = join(dataDir, 'more.ndjson');
    writeFileSync(file, ['{"dataId":"kettle","data":{"title":"Kettle","price":30}}', 'oops', '{"dataId":"mug","data":{"title":"Mug","price":9}}'].join('\n'));
    const imported = await runCli(['import', 'demo', file], cliEnv);
    expect(imported.code).toBe(1);
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: 2, failed: 1, errors: [{ line: 2, message: 'Malformed JSON' }] });
    const page = await fetch(`${started.publicUrl}/public/collections/demo/data?sort=price&order=desc&limit=1`, { headers: { 'X-API-Key': demoKey } });
    expect(await page.json()).toMatchObject({ total: 6, data: [{ dataId: 'teapot' }] });

    const created = await runCli(['keys', 'create', '--name', 'From CLI', '--type', 'live', '--domains', 'example.com,*.example.org'], cliEnv);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { keyId: string; key: string };
    expect(key.key).toMatch(/^pk_live_/);
    const listed = await runCli(['keys', 'list'], cliEnv);
    expect(listed.stdout).toContain(key.keyId);
    expect(listed.stdout).not.toContain(key.key);
    expect((await fetch(`${started.publicUrl}/public/data/welcome`, { headers: { 'X-API-Key': key.key } })).status).toBe(200);
    expect((await runCli(['keys', 'delete', key.keyId], cliEnv)).code).toBe(0);
    const refused = await fetch(`${started.publicUrl}/public/data/welcome`, { headers: { 'X-API-Key': key.key } });
    expect(refused.status).toBe(401);
    const wrongToken = await runCli(['keys', 'list'], { ...cliEnv, ADMIN_TOKEN: 'not-the-admin-token-at-all' });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('401 Unauthorized');
    expect(await stop(started.child, 'SIGINT')).toBe(0);
    // Five CLI processes, each compiling its TypeScript at start: on a loaded 2-core machine this takes a while.
  }, 120_000);

  it('--no-demo on an empty store seeds nothing', async () => {
    const started = await start(['--no-demo'], { DATA_DIR: join(dataDir, 'empty') });
    expect(started.demoKey).toBeNull();
    const list = await fetch(`${started.adminUrl}/admin/collections`, { headers: { authorization: `Bearer ${started.adminToken}` } });
    expect(await list.json()).toEqual({ data: [] });
    expect(await stop(started.child)).toBe(0);
  });

  it('refuses a corrupt event log with one line naming the file and what to do, no stack trace', async () => {
    const dir = join(dataDir, 'corrupt');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'events.db'), 'not a database: someone copied a text file here\n'.repeat(200));
    const result = await runCli(['start'], { DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ADMIN_PORT: '0', LOG_LEVEL: 'warn' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(join(dir, 'events.db'));
    expect(result.stderr).toMatch(/restore it from a backup/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a bad configuration with one line naming the variable', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'start'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: join(dataDir, 'bad'), PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('PORT');
  });
});
