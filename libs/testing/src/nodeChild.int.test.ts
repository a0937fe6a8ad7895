import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './freePort.js';
import { spawnNodeChild, waitUntilHealthy } from './nodeChild.js';

const dir = mkdtempSync(join(tmpdir(), 'pubstream-node-child-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = (name: string, source: string): string => {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
};
const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
const cwd = process.cwd();

describe('spawnNodeChild', () => {
  it('given a server, then it is healthy once it answers, reports its memory, and stops on SIGTERM', async () => {
    const port = await freePort();
    const entry = script(
      'server.ts',
      `import { createServer } from 'node:http';
       const server = createServer((_req, res) => res.end('ok')).listen(${port}, '127.0.0.1', () => console.log('listening'));
       process.on('SIGTERM', () => server.close(() => process.exit(0)));`,
    );
    const child = spawnNodeChild(entry, [], { cwd, env });
    await waitUntilHealthy(child, `http://127.0.0.1:${port}/`, { what: 'server', timeoutMs: 30_000, everyMs: 50, healthy: (status) => status === 200 });
    expect(child.isRunning()).toBe(true);
    expect(child.memory().rss).toBeGreaterThan(0);
    expect(child.output()).toContain('listening');
    await child.stop();
    await expect(child.exited).resolves.toBe(0);
    expect(child.memory()).toEqual({ rss: 0, peak: 0 });
  });

  it('given a child that exits before it is healthy, then the wait fails at once with its output', async () => {
    const entry = script('crash.ts', `console.error('bad configuration'); process.exit(2);`);
    const child = spawnNodeChild(entry, [], { cwd, env });
    const started = Date.now();
    await expect(
      waitUntilHealthy(child, `http://127.0.0.1:${await freePort()}/`, { what: 'crasher', timeoutMs: 60_000, everyMs: 50, healthy: () => true }),
    ).rejects.toThrow(/crasher exited:\n[\s\S]*bad configuration/);
    expect(Date.now() - started).toBeLessThan(30_000);
    await expect(child.exited).resolves.toBe(2);
  });

  it('given kill, then the child dies of SIGKILL', async () => {
    const child = spawnNodeChild(script('idle.ts', 'setInterval(() => {}, 1_000);'), [], { cwd, env });
    await child.kill();
    await expect(child.exited).resolves.toBe('SIGKILL');
  });
});
