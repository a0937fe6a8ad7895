import { sleep } from '@pubstream/testing';
import type { LoadWrite, WriteLoad } from './writeLoad.js';

/** How long after its answer each write could be read on each API node. */
export interface FreshnessCheck {
  /** Per answered 2xx write: ms from its answer until each node (in order) returned it or a later value; null = not within the bound. */
  readonly results: { readonly write: LoadWrite; readonly visibleMs: (number | null)[] }[];
  stop(): Promise<void>;
}

/**
 * Checks read-your-writes across API nodes during a fault: every write of `load` answered 2xx is
 * read back (`GET /public/data/:dataId`) on every node until it shows `n` ≥ the write's `n`, for
 * at most `withinMs` after its answer (then it counts as stale: null).
 */
export const checkFreshReads = (options: {
  readonly apiUrls: readonly string[];
  readonly key: string;
  /** Sent as Origin (a browser's read); omitted for a server-side client. */
  readonly origin?: string;
  readonly load: WriteLoad;
  readonly withinMs: number;
  readonly everyMs?: number;
}): FreshnessCheck => {
  const results: FreshnessCheck['results'][number][] = [];
  const tracked = new Set<LoadWrite>();
  let running = true;
  const readN = async (url: string, dataId: string): Promise<number | null> => {
    try {
      const response = await fetch(`${url}/public/data/${dataId}`, { headers: { 'X-API-Key': options.key, ...(options.origin === undefined ? {} : { Origin: options.origin }) }, signal: AbortSignal.timeout(1_000) });
      const body = (await response.json()) as { data?: { n?: unknown } };
      return response.ok && typeof body.data?.n === 'number' ? body.data.n : null;
    } catch {
      return null;
    }
  };
  const tick = async (): Promise<void> => {
    for (const write of options.load.writes) {
      if (tracked.has(write) || write.answeredAt === null || write.status === null || write.status >= 300) continue;
      tracked.add(write);
      results.push({ write, visibleMs: options.apiUrls.map(() => null) });
    }
    const now = Date.now();
    const pending = results.filter((r) => r.visibleMs.includes(null) && now - (r.write.answeredAt ?? now) <= options.withinMs);
    await Promise.all(
      pending.flatMap((result) =>
        options.apiUrls.map(async (url, i) => {
          if (result.visibleMs[i] !== null) return;
          const n = await readN(url, result.write.dataId);
          if (n !== null && n >= result.write.n) result.visibleMs[i] = Date.now() - (result.write.answeredAt ?? 0);
        }),
      ),
    );
  };
  const loop = (async () => {
    while (running) {
      await tick();
      await sleep(options.everyMs ?? 100);
    }
  })();
  return {
    results,
    async stop() {
      running = false;
      await loop;
      await tick();
    },
  };
};
