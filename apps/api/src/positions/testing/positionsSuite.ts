import { afterEach, describe, expect, it } from 'vitest';
import type { ApiConfig } from '../../apiApp.js';
import type { ApiHarness } from '../../testing/apiHarness.js';
import { expectError } from '../../testing/expectError.js';

/** Starts a harness on the adapter under test, its history read with `now` and kept for `resumeWindowMs`. */
export type PositionsHarnessFactory = (options: { now: () => Date; resumeWindowMs: number; config?: Partial<ApiConfig> }) => Promise<ApiHarness>;

interface ChangesPage {
  changes: { position: number; dataId: string; action: string; version: number; data: Record<string, unknown> }[];
  nextSince: number;
  hasMore: boolean;
}

const T0 = Date.UTC(2026, 0, 1);

/**
 * The public positions (docs/public-api.md, Positions): X-Position on every read, `?minPosition=`
 * and the changes feed, over HTTP, for one adapter.
 */
export const describePositions = (name: string, start: PositionsHarnessFactory): void => {
  describe(`positions on the public reads: ${name}`, () => {
    let clock = T0;
    const opened: ApiHarness[] = [];
    const open = async (resumeWindowMs = 86_400_000, config: Partial<ApiConfig> = {}) => {
      const h = await start({ now: () => new Date(clock), resumeWindowMs, config });
      opened.push(h);
      const { raw } = await h.key({ type: 'live', allowedDomains: ['example.com'] });
      return { h, headers: { 'X-API-Key': raw } };
    };
    afterEach(async () => {
      clock = T0;
      for (const h of opened.splice(0)) await h.close();
    });
    const changes = async (h: ApiHarness, headers: Record<string, string>, query: string) => {
      const res = await h.get(`/public/collections/feed/changes?${query}`, headers);
      expect(res.status).toBe(200);
      const body = (await res.json()) as ChangesPage;
      expect(res.headers.get('x-position')).toBe(String(body.nextSince));
      return body;
    };

    it('X-Position: an item is its record’s position, a page its collection’s lastChange, a batch the state it reflects', async () => {
      const { h, headers } = await open();
      await h.collection('pos');
      await h.item('pos', 'a', { n: 1 });
      const aAt = h.position();
      await h.item('pos', 'b', { n: 1 });
      const bAt = h.position();
      await h.collection('elsewhere');
      expect((await h.get('/public/data/a', headers)).headers.get('x-position')).toBe(String(aAt));
      expect((await h.get('/public/collections/pos/data', headers)).headers.get('x-position')).toBe(String(bAt));
      const batch = await h.post('/public/batch', { dataIds: ['a', 'b', 'missing'] }, headers);
      expect(Number(batch.headers.get('x-position'))).toBeGreaterThanOrEqual(bAt);
      await h.deleteItem('pos', 'b', 1);
      expect((await h.get('/public/collections/pos/data', headers)).headers.get('x-position')).toBe(String(h.position()));
    });

    it('?minPosition= answers once the node has applied it, else 503 JSON with Retry-After; malformed is 400 Invalid position', async () => {
      const { h, headers } = await open(86_400_000, { minPositionWaitMs: 300 });
      await h.collection('rw');
      await h.item('rw', 'x', { n: 1 });
      const reached = await h.get(`/public/data/x?minPosition=${h.position()}`, headers);
      expect(reached.status).toBe(200);
      const ahead = h.position() + 1;
      const late = h.get(`/public/data/x?minPosition=${ahead}`, headers);
      await h.item('rw', 'x', { n: 2 }, { version: 1 });
      const answered = await late;
      expect(answered.status).toBe(200);
      expect((await answered.json()).data).toEqual({ n: 2 });
      const timedOut = await h.get(`/public/collections/rw/data?minPosition=${h.position() + 50}`, headers);
      expect(timedOut.status).toBe(503);
      expect(timedOut.headers.get('retry-after')).toBe('1');
      expect((await timedOut.json()).error).toBe('Service Unavailable');
      for (const bad of ['-1', 'abc', '1.5', '1234567890123456', '']) {
        await expectError(await h.get(`/public/data/x?minPosition=${encodeURIComponent(bad)}`, headers), 400, 'Bad Request', 'Invalid position');
      }
      await expectError(await h.post('/public/batch?minPosition=x', { dataIds: ['x'] }, headers), 400, 'Bad Request', 'Invalid position');
    });

    it('changes feed: 10,000 changes paged with nextSince arrive each exactly once, in position order', async () => {
      const { h, headers } = await open();
      await h.collection('feed');
      const since = h.position();
      const items = 2_500;
      for (let round = 0; round < 4; round++) {
        const ops = Array.from({ length: items }, (_, i) => ({
          kind: 'item.put' as const,
          item: { id: `id-${i}`, dataId: `d${i}`, collectionId: 'feed', data: { round }, createdAt: 'x', updatedAt: 'x', version: round, position: 0 },
        }));
        for (let at = 0; at < ops.length; at += 500) await h.apply(ops.slice(at, at + 500));
      }
      const seen: number[] = [];
      let cursor = since;
      for (let pages = 0; pages < 100; pages++) {
        const page = await changes(h, headers, `since=${cursor}&limit=${pages % 2 === 0 ? 1000 : 337}`);
        seen.push(...page.changes.map((c) => c.position));
        cursor = page.nextSince;
        if (!page.hasMore) break;
      }
      expect(seen).toHaveLength(10_000);
      expect(new Set(seen).size).toBe(10_000);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(cursor).toBe(h.position());
      const last = await changes(h, headers, `since=${cursor}`);
      expect(last).toEqual({ changes: [], nextSince: cursor, hasMore: false });
    });

    it('changes feed: the entries, a quiet collection’s nextSince following the node, 410 past the retention, 404, 400', async () => {
      const { h, headers } = await open(10_000);
      await h.collection('feed');
      const start = h.position();
      await h.item('feed', 'a', { n: 1 });
      await h.deleteItem('feed', 'a', 1);
      const page = await changes(h, headers, `since=${start}`);
      expect(page.changes).toEqual([
        { position: start + 1, dataId: 'a', action: 'update', version: 0, data: { n: 1 } },
        { position: start + 2, dataId: 'a', action: 'delete', version: 1, data: {} },
      ]);
      await h.collection('other');
      await h.item('other', 'o', {});
      // Nothing new in `feed`: its cursor moves with the node, never falling behind the retention.
      expect((await changes(h, headers, `since=${page.nextSince}`)).nextSince).toBe(h.position());
      clock = T0 + 30_000;
      await h.item('other', 'o', { n: 2 }, { version: 1 });
      clock = T0 + 45_000;
      await expectError(await h.get(`/public/collections/feed/changes?since=${start}`, headers), 410, 'Gone', 'Position expired: re-read the collection');
      expect((await changes(h, headers, `since=${h.position()}`)).changes).toEqual([]);
      await expectError(await h.get('/public/collections/nope/changes', headers), 404, 'Not Found', 'Collection not found: nope');
      await expectError(await h.get('/public/collections/feed/changes?since=-3', headers), 400, 'Bad Request', 'Invalid position');
      await expectError(await h.get(`/public/collections/feed/changes?since=${h.position()}&limit=0`, headers), 400, 'Bad Request', 'Invalid limit: must be an integer from 1 to 1000');
      await expectError(await h.get(`/public/collections/feed/changes?since=${h.position()}&limit=1001`, headers), 400, 'Bad Request', 'Invalid limit: must be an integer from 1 to 1000');
      expect((await h.get('/public/collections/feed/changes')).status).toBe(401);
    });
  });
};
