// The world of the client e2e tests (client.e2e, clientReactive.e2e): one all-in-one server per
// file with a short stream lifetime, 120 articles and a test key, and the helpers they share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { FetchLike } from '@pubstream/client';
import type { AllInOne as Server } from '../../../apps/cli/src/allInOne.js';
import { adminRequest, startClientServer } from './clientServer.js';

export const streamTtlMs = 1_500;
export const slug = 'articles';

export interface ClientE2eServer {
  /** The running server (a new one after `restart`). */
  readonly server: Server;
  /** A test key with no domain list. */
  readonly key: string;
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  putItem(dataId: string, data: Record<string, unknown>, collection?: string): Promise<Record<string, unknown>>;
  createKey(input: { type: 'live' | 'test'; allowedDomains?: string[]; rateLimit?: number }): Promise<{ key: string; keyId: string }>;
  /** Stops the server and starts it again on the same ports and data directory. */
  restart(): Promise<Server>;
}

/** Registers the file's beforeAll (start and seed) and afterAll (stop, remove the data). */
export const useClientE2eServer = (): ClientE2eServer => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-client-e2e-'));
  let server: Server | undefined;
  let key: string | undefined;
  // The embedded profile on loopback, with a short stream lifetime; the same ports + data dir restart it.
  const start = (ports = { publicPort: 0, adminPort: 0 }) =>
    startClientServer(dataDir, {
      PORT: String(ports.publicPort),
      ADMIN_PORT: String(ports.adminPort),
      STREAM_TTL_MS: String(streamTtlMs),
      ADMIN_TOKEN: 'client-e2e-admin-token-0123456789',
    });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the client e2e server is not started (use it inside a test)');
    return value;
  };
  const world: ClientE2eServer = {
    get server() {
      return started(server);
    },
    get key() {
      return started(key);
    },
    admin: (method, path, body) => adminRequest(started(server), method, path, body),
    putItem: (dataId, data, collection = slug) => world.admin('PUT', `/admin/collections/${collection}/items/${dataId}`, { data }),
    createKey: (input) =>
      world.admin('POST', '/admin/keys', {
        name: `client-e2e-${input.type}`,
        type: input.type,
        allowedDomains: input.allowedDomains ?? [],
        ...(input.rateLimit ? { rateLimit: input.rateLimit } : {}),
      }),
    async restart() {
      const ports = { publicPort: Number(new URL(world.server.publicUrl).port), adminPort: Number(new URL(world.server.adminUrl).port) };
      await world.server.stop();
      // The stop is quick now (streams end at once and close their sockets): let this process see
      // the old server's keep-alive sockets close before fetch would reuse one for the new server.
      await new Promise((resolve) => setTimeout(resolve, 50));
      server = await start(ports);
      return server;
    },
  };

  beforeAll(async () => {
    server = await start();
    await world.admin('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
    await world.admin('POST', '/admin/collections', { slug, name: 'Articles', sortableFields: [{ name: 'rank', type: 'number' }] });
    for (let i = 0; i < 120; i += 1) await world.putItem(`article-${String(i).padStart(3, '0')}`, { title: `Article ${i}`, rank: i, body: 'x'.repeat(20) });
    key = (await world.createKey({ type: 'test' })).key;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return world;
};

/** Resolves once `predicate` holds, polling; fails with `what` after `ms`. */
export async function eventually(what: string, predicate: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A real fetch that records each response status and when the request was sent. */
export function recordingFetch() {
  const calls: { at: number; status: number; headers: Headers }[] = [];
  const fetchFn: FetchLike = async (input, init) => {
    const at = Date.now();
    const response = await fetch(input, init);
    calls.push({ at, status: response.status, headers: response.headers });
    return response;
  };
  return { calls, fetchFn };
}

export const errorOf = async (promise: Promise<unknown>): Promise<unknown> => promise.then(() => new Error('expected a failure'), (error: unknown) => error);
