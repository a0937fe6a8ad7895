import { describe, expect, it } from 'vitest';
import { itemDeleteFrame, itemUpdateFrame, readyFrame, resetFrame, withId } from './sseFrames.js';
import { StreamSubscription, type ItemDelta, type PageDelta, type SubscriptionStart } from './streamSubscription.js';

// Positions in these tests: item `a` version v changes at position 10·v, so order is easy to read.
const update = (dataId: string, version: number, position = 10 * version): ItemDelta => ({
  dataId,
  action: 'update',
  version,
  position,
  frame: withId(position, itemUpdateFrame(dataId, { v: version }, version)),
});
const remove = (dataId: string, version: number, position = 10 * version): ItemDelta => ({
  dataId,
  action: 'delete',
  version,
  position,
  frame: withId(position, itemDeleteFrame(dataId, version)),
});
const page = (slug: string, seq: number, json: string): PageDelta => ({ slug, seq, json, frame: `page ${slug} ${json}` });
const itemFrame: SubscriptionStart['itemFrame'] = (item) => itemUpdateFrame(item.dataId, item.data, item.version);
const snapshot = (position: number, items: Record<string, number | null>, pages: PageDelta[] = [], reset = false): SubscriptionStart => ({
  kind: 'snapshot',
  reset,
  items: new Map(Object.entries(items).map(([dataId, version]) => [dataId, version === null ? null : { dataId, data: { v: version }, version }])),
  pages: pages.map((p) => ({ ...p, missing: false })),
  position,
  missingSlugs: [],
  itemFrame,
});
const resume = (position: number, changes: ItemDelta[], pages: PageDelta[] = []): SubscriptionStart => ({
  kind: 'resume',
  changes: changes.map((c) => ({ position: c.position, dataId: c.dataId, collectionId: 'c', action: c.action, version: c.version, data: c.action === 'update' ? { v: c.version } : {} })),
  pages: pages.map((p) => ({ ...p, missing: false })),
  position,
  missingSlugs: [],
  itemFrame,
});
const recorder = () => {
  const frames: string[] = [];
  return { frames, write: (frame: string) => void frames.push(frame) };
};

describe('StreamSubscription hand-off with positions (docs/subscriptions.md)', () => {
  it('given deltas buffered while the snapshot at C was read, then the snapshot (no ids), ready (id C), and only the deltas after C follow', () => {
    const sub = new StreamSubscription(['a'], []);
    sub.onItem(update('a', 4));
    sub.onItem(update('a', 5));
    sub.onItem(update('a', 6));
    const sink = recorder();
    sub.applyStart(snapshot(50, { a: 5 }), sink);
    expect(sink.frames).toEqual([itemUpdateFrame('a', { v: 5 }, 5), readyFrame(50), update('a', 6).frame]);
    expect(sub.state).toBe('live');
    expect(sub.lastId).toBe(60);
  });

  it('drops duplicates and replays once live: ids reach the client strictly increasing', () => {
    const sub = new StreamSubscription(['a', 'b'], []);
    const sink = recorder();
    sub.applyStart(snapshot(20, { a: 2, b: 0 }), sink);
    sink.frames.length = 0;
    for (const delta of [update('a', 2), update('a', 1), update('a', 3), update('b', 1, 35), update('a', 3), update('b', 1, 35), update('a', 4)]) sub.onItem(delta);
    expect(sink.frames).toEqual([update('a', 3).frame, update('b', 1, 35).frame, update('a', 4).frame]);
  });

  it('given a resume, then no snapshot: the retained changes after the client position with their ids, every page, then ready', () => {
    const sub = new StreamSubscription(['a', 'b'], ['c']);
    sub.onItem(update('a', 7));
    const sink = recorder();
    sub.applyStart(resume(60, [update('a', 5), remove('b', 6, 55)], [page('c', 4, 'now')]), sink);
    expect(sink.frames).toEqual([update('a', 5).frame, remove('b', 6, 55).frame, 'page c now', readyFrame(60), update('a', 7).frame]);
  });

  it('given a resume from a position the history no longer holds, then reset precedes a normal snapshot', () => {
    const sub = new StreamSubscription(['a'], []);
    const sink = recorder();
    sub.applyStart(snapshot(90, { a: 9 }, [], true), sink);
    expect(sink.frames).toEqual([resetFrame('position_expired'), itemUpdateFrame('a', { v: 9 }, 9), readyFrame(90)]);
  });

  it('sends an item that did not exist at the snapshot when it is created, and a delete only to a client that holds the item', () => {
    const sub = new StreamSubscription(['a', 'b', 'new'], []);
    const sink = recorder();
    sub.applyStart(snapshot(10, { a: 1, b: null, new: null }), sink);
    sink.frames.length = 0;
    sub.onItem(update('new', 0, 11));
    sub.onItem(remove('a', 2));
    sub.onItem(remove('b', 7));
    expect(sink.frames).toEqual([update('new', 0, 11).frame, remove('a', 2).frame]);
  });

  it('keeps only pages read after the start was read and never repeats an identical page; pages carry no id', () => {
    const sub = new StreamSubscription([], ['c']);
    sub.onPage(page('c', 3, 'old'));
    sub.onPage(page('c', 9, 'newer'));
    const sink = recorder();
    sub.applyStart(snapshot(5, {}, [page('c', 5, 'snap')]), sink);
    expect(sink.frames).toEqual(['page c snap', readyFrame(5), 'page c newer']);
    sub.onPage(page('c', 10, 'newer'));
    sub.onPage(page('c', 8, 'stale'));
    sub.onPage(page('c', 11, 'latest'));
    expect(sink.frames.slice(3)).toEqual(['page c latest']);
  });

  it('catches up after a gap from its last id: the missed changes once, ready, then the buffered ones after it', () => {
    const sub = new StreamSubscription(['a', 'b'], []);
    const sink = recorder();
    sub.applyStart(snapshot(10, { a: 1, b: 1 }), sink);
    sink.frames.length = 0;
    sub.beginCatchUp();
    sub.onItem(update('a', 3));
    sub.onItem(update('a', 4));
    sub.applyStart(resume(30, [update('a', 2), remove('b', 2, 25), update('a', 3)]), sink);
    expect(sink.frames).toEqual([update('a', 2).frame, remove('b', 2, 25).frame, update('a', 3).frame, readyFrame(30), update('a', 4).frame]);
  });

  it('never sends a ready below an id already sent', () => {
    const sub = new StreamSubscription(['a'], []);
    const sink = recorder();
    sub.applyStart(snapshot(10, { a: 1 }), sink);
    sub.onItem(update('a', 3));
    sub.beginCatchUp();
    sub.applyStart(resume(20, []), sink);
    expect(sink.frames.at(-1)).toBe(readyFrame(30));
  });
});
