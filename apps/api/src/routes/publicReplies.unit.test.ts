import { describe, expect, it } from 'vitest';
import type { ItemRecord } from '@pubstream/read-model';
import { batchReply, itemReply, itemStamp, pageCacheEntry, pageReply } from './publicReplies.js';

const item = (dataId: string, version: number, data: Record<string, unknown> = { title: dataId }): ItemRecord => ({
  id: `id-${dataId}`,
  dataId,
  collectionId: 'news',
  data,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  version,
  position: version,
});
const query = { page: 2, limit: 2, sort: 'createdAt', order: 'desc' as const };

describe('public replies', () => {
  it('an item: every public field but the version, tagged by dataId and version', () => {
    const reply = itemReply(item('a', 3));
    expect(JSON.parse(reply.body)).toEqual({ id: 'id-a', dataId: 'a', collectionId: 'news', data: { title: 'a' }, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' });
    expect(reply.etag).toBe(itemReply(item('a', 3, { other: true })).etag);
    expect(reply.etag).not.toBe(itemReply(item('a', 4)).etag);
    expect(itemStamp(item('a', 3))).toBe('id-a@3');
  });

  it('a batch: found items in request order with only the asked fields, the rest not found, no ETag', () => {
    const reply = batchReply({ dataIds: ['b', 'x', 'a'], fields: ['title'] }, [item('b', 1, { title: 'B', body: '…' }), null, item('a', 1, { title: 'A' })]);
    expect(JSON.parse(reply.body)).toEqual({ data: [{ dataId: 'b', data: { title: 'B' } }, { dataId: 'a', data: { title: 'A' } }], found: 2, notFound: ['x'] });
    expect(reply.etag).toBeNull();
  });

  it('a page: its items, the true total and page count, tagged by query, total and versions', () => {
    const result = { items: [item('c', 1), item('d', 2)], total: 5, position: 0 };
    const reply = pageReply('news', query, result);
    expect(JSON.parse(reply.body)).toEqual({ data: [{ dataId: 'c', data: { title: 'c' } }, { dataId: 'd', data: { title: 'd' } }], total: 5, page: 2, limit: 2, totalPages: 3 });
    expect(pageReply('news', query, { ...result, total: 6, position: 0 }).etag).not.toBe(reply.etag);
    expect(pageReply('news', { ...query, order: 'asc' }, result).etag).not.toBe(reply.etag);
  });

  it('a page past the last: empty data with the true total', () => {
    expect(JSON.parse(pageReply('news', { ...query, page: 9 }, { items: [], total: 5, position: 0 }).body)).toEqual({ data: [], total: 5, page: 9, limit: 2, totalPages: 3 });
  });

  it('the page cache entry changes with the query, the total and any version, not with anything else', () => {
    const result = { items: [item('c', 1), item('d', 2)], total: 5, position: 0 };
    const entry = pageCacheEntry('news', query, result);
    expect(pageCacheEntry('news', query, { items: [item('c', 1, { other: 1 }), item('d', 2)], total: 5, position: 0 })).toEqual(entry);
    expect(pageCacheEntry('news', query, { items: [item('c', 1), item('d', 3)], total: 5, position: 0 }).stamp).not.toBe(entry.stamp);
    expect(pageCacheEntry('news', query, { ...result, total: 4, position: 0 }).stamp).not.toBe(entry.stamp);
    expect(pageCacheEntry('news', { ...query, page: 3 }, result).name).not.toBe(entry.name);
  });
});
