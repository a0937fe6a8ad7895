import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, processMemory, sleep } from '@pubstream/testing';

/** A running PocketBase with a superuser token and the `bench` collection. */
export interface PocketBase {
  readonly url: string;
  readonly token: string;
  peakRssBytes(): number;
  call(method: string, urlPath: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

const EMAIL = 'bench@example.com';
const PASSWORD = 'bench-password-0123456789';

/** The record id of item n: PocketBase ids are 15 characters of [a-z0-9]. */
export const pocketBaseId = (n: number): string => `i${String(n).padStart(14, '0')}`;

const waitHealthy = async (url: string, exited: () => boolean): Promise<void> => {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !exited()) {
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await sleep(200);
  }
  throw new Error('PocketBase did not answer /api/health within 60 s');
};

/** Starts `binary serve` on a free loopback port with a fresh data folder and a superuser. */
export const startPocketBase = async (binary: string): Promise<PocketBase> => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pubstream-bench-pb-'));
  const upsert = spawnSync(binary, ['superuser', 'upsert', EMAIL, PASSWORD, `--dir=${dir}`], { encoding: 'utf8', timeout: 60_000 });
  if (upsert.status !== 0) throw new Error(`pocketbase superuser upsert failed: ${upsert.stderr || upsert.stdout}`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(binary, ['serve', `--http=127.0.0.1:${port}`, `--dir=${dir}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let exited = false;
  const done = new Promise<void>((resolve) => child.on('exit', () => ((exited = true), resolve())));
  const stop = async (): Promise<void> => {
    if (!exited) child.kill('SIGTERM');
    await Promise.race([done, sleep(5_000)]);
    if (!exited) child.kill('SIGKILL');
    await done;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(url, () => exited);
    const auth = (await (await fetch(`${url}/api/collections/_superusers/auth-with-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identity: EMAIL, password: PASSWORD }),
    })).json()) as { token?: string };
    if (!auth.token) throw new Error('PocketBase superuser sign-in returned no token');
    const token = auth.token;
    const call = async (method: string, urlPath: string, body?: unknown): Promise<unknown> => {
      const response = await fetch(`${url}${urlPath}`, {
        method,
        headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`PocketBase ${method} ${urlPath} → ${response.status} ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    };
    const peak = () => processMemory(child.pid ?? 0).peak;
    return { url, token, peakRssBytes: peak, call, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};

/**
 * The `bench` collection, public to read (list and view rules empty), with an index on `score`
 * (as fair to the peer as Pubstream's sorted index), and items [0, count) as in adminClient.ts.
 */
export const loadPocketBase = async (pb: PocketBase, count: number): Promise<void> => {
  // A create answered late on a loaded machine may have gone through already.
  const exists = await pb.call('GET', '/api/collections/bench').then(() => true, () => false);
  if (!exists) await pb.call('POST', '/api/collections', {
    name: 'bench',
    type: 'base',
    listRule: '',
    viewRule: '',
    fields: [
      { name: 'title', type: 'text' },
      { name: 'score', type: 'number' },
      { name: 'tag', type: 'text' },
      { name: 'ts', type: 'number' },
      { name: 'seq', type: 'number' },
    ],
    indexes: ['CREATE INDEX idx_bench_score ON bench (score)'],
  });
  const create = (i: number) =>
    pb.call('POST', '/api/collections/bench/records', { id: pocketBaseId(i), title: `Item ${i}`, score: (i * 7919) % 100_003, tag: `t${i % 97}` }).catch(async (error: unknown) => {
      if (!(await pb.call('GET', `/api/collections/bench/records/${pocketBaseId(i)}`).then(() => true, () => false))) throw error;
    });
  for (let start = 0; start < count; start += 50) await Promise.all(Array.from({ length: Math.min(50, count - start) }, (_, k) => create(start + k)));
};
