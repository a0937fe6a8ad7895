// The resume chaos scenario (issue 17, "Must show"), for any profile: 50 subscribers each watch a
// few items and a collection; during a burst of 2,000 admin writes they are cut at random moments
// and resume on a random node with their last id. Afterwards each must have seen every version of
// every watched item exactly once and in order, and hold the collection's page 1 as a fresh read.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { eventually } from '@pubstream/testing';
import { ChaosSubscriber, type SeenVersion } from './chaosSubscriber.js';

type Admin = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * One admin write, retried when the connection fails (a loaded machine closes keep-alive sockets
 * under it) with the same Idempotency-Key, so that a write that did land is not appended twice.
 */
const idempotentWrite = async (adminUrl: string, token: string, method: string, path: string, body?: unknown): Promise<void> => {
  const headers = { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${adminUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      if (response.ok) return;
      if (response.status !== 503 || attempt >= 5) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    } catch (error) {
      if (attempt >= 5 || (error instanceof Error && error.message.startsWith(method))) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
};

export interface ResumeChaosOptions {
  /** Public base URLs of the API nodes. */
  readonly nodes: readonly string[];
  readonly admin: Admin;
  /** The admin API and its token, for the burst's idempotent writes. */
  readonly adminUrl: string;
  readonly adminToken: string;
  readonly origin: string;
  readonly subscribers?: number;
  readonly writes?: number;
}

const SLUGS = ['chaos-a', 'chaos-b'];
const ITEMS = 30;
const itemId = (i: number) => `item-${String(i).padStart(2, '0')}`;
const slugOf = (i: number) => SLUGS[i % SLUGS.length] as string;
const sample = <T>(list: readonly T[], count: number): T[] => [...list].sort(() => Math.random() - 0.5).slice(0, count);

/** The writer: per item, versions 0, 1, 2, … (each PUT or DELETE is one), `n` = the version; every 20th write of an item deletes it. */
class ChaosWriter {
  readonly versions = new Map<number, number>();
  readonly exists = new Map<number, boolean>();
  private readonly chains = new Map<number, Promise<void>>();

  constructor(private readonly write: (method: string, path: string, body?: unknown) => Promise<void>) {}

  next(i: number): Promise<void> {
    const next = (this.chains.get(i) ?? Promise.resolve()).then(() => this.writeNow(i));
    this.chains.set(i, next);
    return next;
  }

  private async writeNow(i: number): Promise<void> {
    const version = (this.versions.get(i) ?? -1) + 1;
    const path = `/admin/collections/${slugOf(i)}/items/${itemId(i)}`;
    if (this.exists.get(i) && version % 20 === 19) {
      await this.write('DELETE', path);
      this.exists.set(i, false);
    } else {
      await this.write('PUT', path, { data: { n: version } });
      this.exists.set(i, true);
    }
    this.versions.set(i, version);
  }
}

/** Every version once, in order, each update carrying its own `n`, ending at the writer's last. */
const expectEveryVersionOnce = (seen: readonly SeenVersion[], last: number, what: string): void => {
  const first = seen[0]?.version ?? 0;
  expect(seen.map((s) => s.version), what).toEqual(Array.from({ length: last - first + 1 }, (_, k) => first + k));
  for (const s of seen) if (s.action === 'update') expect(s.n, `${what} v${s.version}`).toBe(s.version);
};

export const runResumeChaos = async (options: ResumeChaosOptions): Promise<{ connects: number; refusals: number }> => {
  const { admin, nodes } = options;
  for (const slug of SLUGS) await admin('POST', '/admin/collections', { slug, name: slug });
  const { key } = await admin<{ key: string }>('POST', '/admin/keys', { name: 'chaos', type: 'live', allowedDomains: [new URL(options.origin).hostname], rateLimit: 50_000 });
  const writer = new ChaosWriter((method, path, body) => idempotentWrite(options.adminUrl, options.adminToken, method, path, body));
  for (let i = 0; i < ITEMS; i++) await writer.next(i);

  const all = Array.from({ length: ITEMS }, (_, i) => i);
  const subscribers = Array.from({ length: options.subscribers ?? 50 }, () => {
    const watched = sample(all, 4);
    return { watched, sub: new ChaosSubscriber({ nodes, apiKey: key, origin: options.origin, dataIds: watched.map(itemId), slug: SLUGS[Math.floor(Math.random() * 2)] as string }) };
  });
  await Promise.all(subscribers.map(({ sub }) => sub.start()));

  // The burst, four writes in flight; meanwhile every subscriber is cut now and then.
  let chaos = true;
  const cutter = (async () => {
    while (chaos) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      // About one cut per subscriber per second: ~50 resumes a second for the whole burst.
      for (const { sub } of subscribers) if (Math.random() < 0.02) sub.cut();
    }
  })();
  const total = options.writes ?? 2_000;
  let issued = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (issued < total) {
        issued++;
        await writer.next(Math.floor(Math.random() * ITEMS));
      }
    }),
  );
  chaos = false;
  await cutter;

  try {
    for (const [index, { watched, sub }] of subscribers.entries()) {
      await eventually(`subscriber ${index} to receive every last version`, async () =>
        watched.every((i) => sub.seen.get(itemId(i))?.at(-1)?.version === writer.versions.get(i)) ? true : undefined, 60_000, 50);
      for (const i of watched) expectEveryVersionOnce(sub.seen.get(itemId(i)) ?? [], writer.versions.get(i) as number, `subscriber ${index}, ${itemId(i)}`);
      expect(sub.resets, `subscriber ${index} resets`).toBe(0);
      const slug = sub.options.slug;
      await eventually(`subscriber ${index}'s page of ${slug} to equal a fresh read`, async () => {
        const response = await fetch(`${nodes[0]}/public/collections/${slug}/data`, { headers: { 'X-API-Key': key } });
        const fresh = (await response.json()) as Record<string, unknown>;
        const held = sub.page as Record<string, unknown> | undefined;
        return JSON.stringify(held?.data) === JSON.stringify(fresh.data) && held?.total === fresh.total ? true : undefined;
      }, 30_000, 100);
    }
  } finally {
    await Promise.all(subscribers.map(({ sub }) => sub.stop()));
  }
  return {
    connects: subscribers.reduce((sum, { sub }) => sum + sub.connects, 0),
    refusals: subscribers.reduce((sum, { sub }) => sum + sub.refusals, 0),
  };
};
