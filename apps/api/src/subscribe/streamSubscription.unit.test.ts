import { describe, expect, it } from 'vitest';
import type { ItemRecord } from '@pubstream/read-model';
import { itemDeleteFrame, itemUpdateFrame } from './sseFrames.js';
import { StreamSubscription, type ItemDelta, type PageDelta, type SubscriptionSnapshot } from './streamSubscription.js';

const record = (dataId: string, version: number): ItemRecord => ({
  id: `id-${dataId}`,
  dataId,
  collectionId: 'c',
  data: { v: version },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version,
  position: version,
});
const update = (dataId: string, version: number): ItemDelta => ({ dataId, action: 'update', version, frame: itemUpdateFrame(dataId, { v: version }, version) });
const remove = (dataId: string, version: number): ItemDelta => ({ dataId, action: 'delete', version, frame: itemDeleteFrame(dataId, version) });
const page = (slug: string, seq: number, json: string): PageDelta => ({ slug, seq, json, frame: `page ${slug} ${json}` });
const snapshot = (items: Record<string, number | null>, pages: PageDelta[] = []): SubscriptionSnapshot => ({
  items: new Map(Object.entries(items).map(([id, version]) => [id, version === null ? null : record(id, version)])),
  pages,
  itemFrame: (r) => itemUpdateFrame(r.dataId, r.data, r.version),
});
const recorder = () => {
  const frames: string[] = [];
  return { frames, write: (frame: string) => void frames.push(frame) };
};
const versionsIn = (frames: string[]) => frames.map((f) => JSON.parse(f.split('data: ')[1] ?? '{}').version);

describe('StreamSubscription hand-off (docs/subscriptions.md)', () => {
  it('given deltas buffered while the snapshot was read, when applied, then only versions newer than the snapshot follow it', () => {
    const sub = new StreamSubscription(['a'], []);
    sub.onItem(update('a', 4));
    sub.onItem(update('a', 5));
    sub.onItem(update('a', 6));
    const sink = recorder();
    sub.applySnapshot(snapshot({ a: 5 }), sink);
    expect(versionsIn(sink.frames)).toEqual([5, 6]);
    expect(sub.state).toBe('live');
  });

  it('drops duplicates and stale messages once live, so versions reach the client strictly increasing', () => {
    const sub = new StreamSubscription(['a'], []);
    const sink = recorder();
    sub.applySnapshot(snapshot({ a: 2 }), sink);
    for (const version of [2, 1, 3, 3, 2, 4]) sub.onItem(update('a', version));
    expect(versionsIn(sink.frames)).toEqual([2, 3, 4]);
  });

  it('sends an item that did not exist at the snapshot when it is created (revision 0)', () => {
    const sub = new StreamSubscription(['new'], []);
    const sink = recorder();
    sub.applySnapshot(snapshot({ new: null }), sink);
    expect(sink.frames).toEqual([]);
    sub.onItem(update('new', 0));
    expect(versionsIn(sink.frames)).toEqual([0]);
  });

  it('given an item missing at the snapshot, buffered messages up to its last delete are already reflected and skipped', () => {
    const sub = new StreamSubscription(['a'], []);
    sub.onItem(update('a', 3));
    sub.onItem(remove('a', 4));
    sub.onItem(update('a', 5));
    const sink = recorder();
    sub.applySnapshot(snapshot({ a: null }), sink);
    expect(versionsIn(sink.frames)).toEqual([5]);
  });

  it('sends a delete only to a client that holds the item', () => {
    const sub = new StreamSubscription(['a', 'b'], []);
    const sink = recorder();
    sub.applySnapshot(snapshot({ a: 1, b: null }), sink);
    sub.onItem(remove('a', 2));
    sub.onItem(remove('b', 7));
    expect(sink.frames.slice(1)).toEqual([itemDeleteFrame('a', 2)]);
  });

  it('keeps only pages read after the snapshot read and never repeats an identical page', () => {
    const sub = new StreamSubscription([], ['c']);
    sub.onPage(page('c', 3, 'old'));
    sub.onPage(page('c', 9, 'newer'));
    const sink = recorder();
    sub.applySnapshot(snapshot({}, [page('c', 5, 'snap')]), sink);
    expect(sink.frames).toEqual(['page c snap', 'page c newer']);
    sub.onPage(page('c', 10, 'newer'));
    sub.onPage(page('c', 8, 'stale'));
    sub.onPage(page('c', 11, 'latest'));
    expect(sink.frames).toEqual(['page c snap', 'page c newer', 'page c latest']);
  });

  it('re-syncs after a gap by sending only what changed, including deletions found missing', () => {
    const sub = new StreamSubscription(['a', 'b', 'c'], []);
    const sink = recorder();
    sub.applySnapshot(snapshot({ a: 1, b: 1, c: 1 }), sink);
    sink.frames.length = 0;
    sub.beginResync();
    sub.onItem(update('a', 3));
    sub.applySnapshot(snapshot({ a: 2, b: 1, c: null }), sink);
    expect(sink.frames).toEqual([itemUpdateFrame('a', { v: 2 }, 2), itemDeleteFrame('c'), update('a', 3).frame]);
  });
});
