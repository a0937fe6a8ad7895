import { itemDeleteFrame, itemUpdateFrame, readyFrame, resetFrame, withId } from './sseFrames.js';
import type { ItemDelta, PageDelta } from './streamDeltas.js';
import type { StreamStart } from './streamStart.js';

/** Where a subscription's frames go (an SSE connection, or a recorder in tests). */
export interface FrameSink {
  write(frame: string): void;
}

export type { ItemDelta, PageDelta } from './streamDeltas.js';

/** What a start sends besides pages, and the update frame of a snapshot item (the hub may reuse a cached one). */
export type SubscriptionStart = StreamStart & {
  itemFrame(item: { readonly dataId: string; readonly data: unknown; readonly version: number }): string;
};

/**
 * The per-connection hand-off (docs/subscriptions.md, "the hand-off" and "Positions"). A
 * subscription starts in `buffering`: the hub already routes deltas to it (it is registered), and
 * they are kept. The start (a snapshot, or a resume's catch-up) is then read and applied with
 * `applyStart`: it is exactly the state at one position C, so `ready` (id C) follows it and only
 * the buffered deltas after C are released. From then on it is `live`, and a delta passes only
 * when its position is above the last one sent, so duplicates and stale messages (at-least-once
 * delivery) never reach the client and ids never decrease. A catch-up after a change-stream gap is
 * the same dance again (`beginCatchUp`, then `applyStart` of a resume from `lastId`).
 */
export class StreamSubscription {
  private phase: 'buffering' | 'live' | 'closed' = 'buffering';
  private sink: FrameSink | null = null;
  /** Whether the client holds each item; unknown (a resume) counts as held, so that deletes reach it. */
  private readonly held = new Map<string, boolean>();
  /**
   * Per collection, the seq of the last page read applied and the JSON the client has: one lookup
   * per page delivery (10,000 streams × every recompute), updated in place. Made on first use, as
   * is the page buffer below: a stream of items only holds no empty maps it never needs.
   */
  private pages: Map<string, SentPage> | null = null;
  private bufferedItems: ItemDelta[] = [];
  private bufferedPages: Map<string, PageDelta> | null = null;
  private bufferedBytesCount = 0;
  private last = -1;

  constructor(
    readonly dataIds: readonly string[],
    readonly slugs: readonly string[],
  ) {}

  get state(): 'buffering' | 'live' | 'closed' {
    return this.phase;
  }

  /** Position of the last change the client has (the last `id` sent); -1 before `ready`. */
  get lastId(): number {
    return this.last;
  }

  /** Bytes of deltas held while the start is being read. */
  get bufferedBytes(): number {
    return this.bufferedBytesCount;
  }

  onItem(delta: ItemDelta): void {
    if (this.phase === 'buffering') {
      this.bufferedItems.push(delta);
      this.bufferedBytesCount += delta.frame.length;
    } else if (this.phase === 'live') {
      this.deliverItem(delta);
    }
  }

  onPage(page: PageDelta): void {
    if (this.phase === 'buffering') {
      this.bufferedPages ??= new Map();
      const held = this.bufferedPages.get(page.slug);
      if (!held || page.seq > held.seq) this.bufferedPages.set(page.slug, page);
    } else if (this.phase === 'live') {
      this.deliverPage(page);
    }
  }

  /** Buffer deltas again while a catch-up is read (after a change-stream gap). */
  beginCatchUp(): void {
    if (this.phase === 'live') this.phase = 'buffering';
  }

  /** Sends the start, `ready`, then the buffered deltas after its position, and goes live. */
  applyStart(start: SubscriptionStart, sink: FrameSink): void {
    if (this.phase === 'closed') return;
    this.sink = sink;
    if (start.kind === 'snapshot') this.sendSnapshot(start, sink);
    else for (const change of start.changes) this.deliverItem(catchUpDelta(change));
    for (const page of start.pages) this.deliverPage(page);
    if (start.position > this.last) this.last = start.position;
    sink.write(readyFrame(this.last));

    const buffered = this.bufferedItems;
    this.bufferedItems = [];
    this.bufferedBytesCount = 0;
    for (const delta of buffered) this.deliverItem(delta);
    const bufferedPages = this.bufferedPages;
    this.bufferedPages = null;
    if (bufferedPages) for (const page of bufferedPages.values()) this.deliverPage(page);
    this.phase = 'live';
  }

  close(): void {
    this.phase = 'closed';
    this.sink = null;
    this.bufferedItems = [];
    this.bufferedPages = null;
    this.bufferedBytesCount = 0;
  }

  /** Snapshot frames carry no id: a connection that drops mid-snapshot resumes from where it was. */
  private sendSnapshot(start: Extract<SubscriptionStart, { kind: 'snapshot' }>, sink: FrameSink): void {
    if (start.reset) sink.write(resetFrame('position_expired'));
    for (const [dataId, item] of start.items) {
      this.held.set(dataId, item !== null);
      if (item) sink.write(start.itemFrame(item));
    }
  }

  private deliverItem(delta: ItemDelta): void {
    if (delta.position <= this.last) return;
    this.last = delta.position;
    const held = this.held.get(delta.dataId) ?? true;
    const exists = delta.action === 'update';
    // Absent counts as held: an update of a held item changes nothing, and costs no second lookup.
    if (held !== exists) this.held.set(delta.dataId, exists);
    // A client that never held the item has nothing to delete.
    if (exists || held) this.sink?.write(delta.frame);
  }

  private deliverPage(page: PageDelta): void {
    this.pages ??= new Map();
    const sent = this.pages.get(page.slug);
    if (!sent) {
      this.pages.set(page.slug, { seq: page.seq, json: page.json });
    } else {
      if (page.seq <= sent.seq) return;
      sent.seq = page.seq;
      // A recompute that found what the client already has is not news.
      if (sent.json === page.json) return;
      sent.json = page.json;
    }
    this.sink?.write(page.frame);
  }
}

/** The last page read a stream applied for one collection, and the JSON its client holds. */
interface SentPage {
  seq: number;
  json: string;
}

/** A retained change as a delta (framed per stream: a catch-up is rare next to live fanout). */
const catchUpDelta = (change: { dataId: string; action: 'update' | 'delete'; version: number; position: number; data: unknown }): ItemDelta => ({
  dataId: change.dataId,
  action: change.action,
  version: change.version,
  position: change.position,
  frame: withId(change.position, change.action === 'update' ? itemUpdateFrame(change.dataId, change.data, change.version) : itemDeleteFrame(change.dataId, change.version)),
});
