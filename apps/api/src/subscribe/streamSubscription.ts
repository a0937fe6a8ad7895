import type { ItemRecord } from '@pubstream/read-model';
import { itemDeleteFrame } from './sseFrames.js';

/** Where a subscription's frames go (an SSE connection, or a recorder in tests). */
export interface FrameSink {
  write(frame: string): void;
}

/** An item change, with its frame built once by the hub for every subscriber. */
export interface ItemDelta {
  readonly dataId: string;
  readonly action: 'update' | 'delete';
  readonly version: number;
  readonly frame: string;
}

/**
 * A computed page 1 of a collection. `seq` orders page reads: a read with a higher seq was issued
 * later, so it reflects at least as many writes.
 */
export interface PageDelta {
  readonly slug: string;
  readonly seq: number;
  readonly json: string;
  readonly frame: string;
}

/** What one snapshot read found: each subscribed item (null when missing) and each collection page. */
export interface SubscriptionSnapshot {
  readonly items: ReadonlyMap<string, ItemRecord | null>;
  readonly pages: readonly PageDelta[];
  /** The update frame of an item record (the hub may reuse a cached one). */
  itemFrame(record: ItemRecord): string;
}

interface ItemView {
  /** Highest version the client has been told about (or that was skipped as superseded). */
  version: number;
  /** Whether the client currently holds the item. */
  exists: boolean;
}

/**
 * The per-connection hand-off (docs/subscriptions.md, "the hand-off"). A subscription starts in
 * `buffering`: the hub already routes deltas to it (it is registered), and they are kept. The
 * snapshot is then read and applied with `applySnapshot`, which sends what the client lacks and
 * releases only the buffered deltas newer than what it sent. From then on it is `live`, and every
 * delta passes a per-item version check, so duplicates and stale messages (at-least-once delivery,
 * late publishes of writes the snapshot already saw) never reach the client and versions reach it
 * strictly increasing. A re-sync after a change-stream gap is the same dance again (`beginResync`
 * then `applySnapshot`): only what changed is sent.
 */
export class StreamSubscription {
  private phase: 'buffering' | 'live' | 'closed' = 'buffering';
  private sink: FrameSink | null = null;
  private readonly items = new Map<string, ItemView>();
  private readonly pageSeq = new Map<string, number>();
  private readonly pageJson = new Map<string, string>();
  private bufferedItems: ItemDelta[] = [];
  private readonly bufferedPages = new Map<string, PageDelta>();
  private bufferedBytesCount = 0;

  constructor(
    readonly dataIds: readonly string[],
    readonly slugs: readonly string[],
  ) {}

  get state(): 'buffering' | 'live' | 'closed' {
    return this.phase;
  }

  /** Bytes of deltas held while the snapshot is being read. */
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
      const held = this.bufferedPages.get(page.slug);
      if (!held || page.seq > held.seq) this.bufferedPages.set(page.slug, page);
    } else if (this.phase === 'live') {
      this.deliverPage(page);
    }
  }

  /** Buffer deltas again while a fresh snapshot is read (after a change-stream gap). */
  beginResync(): void {
    if (this.phase === 'live') this.phase = 'buffering';
  }

  /**
   * Sends the snapshot (only what differs from what the client holds), then the buffered deltas
   * newer than it, and goes live.
   */
  applySnapshot(snapshot: SubscriptionSnapshot, sink: FrameSink): void {
    if (this.phase === 'closed') return;
    this.sink = sink;
    const absent = new Set<string>();
    for (const [dataId, record] of snapshot.items) {
      const view = this.items.get(dataId);
      if (record) {
        if (!view || !view.exists || record.version > view.version) {
          this.items.set(dataId, { version: record.version, exists: true });
          sink.write(snapshot.itemFrame(record));
        }
      } else {
        absent.add(dataId);
        if (view?.exists) {
          // Deleted while we were not listening: the deleting revision is unknown.
          this.items.set(dataId, { version: view.version, exists: false });
          sink.write(itemDeleteFrame(dataId));
        } else if (!view) {
          // Stream revisions start at 0: any message about it is newer than "never seen".
          this.items.set(dataId, { version: -1, exists: false });
        }
      }
    }
    for (const page of snapshot.pages) this.deliverPage(page);

    const buffered = this.bufferedItems;
    this.bufferedItems = [];
    this.bufferedBytesCount = 0;
    // For an item the snapshot found missing, everything up to its last buffered delete is already
    // reflected in that absence (the read model keeps no readable tombstone version to compare with).
    const lastDelete = new Map<string, number>();
    buffered.forEach((delta, index) => {
      if (delta.action === 'delete' && absent.has(delta.dataId)) lastDelete.set(delta.dataId, index);
    });
    buffered.forEach((delta, index) => {
      const cut = lastDelete.get(delta.dataId);
      if (cut !== undefined && index <= cut) {
        const view = this.items.get(delta.dataId);
        if (view && delta.version > view.version) view.version = delta.version;
        return;
      }
      this.deliverItem(delta);
    });
    for (const page of this.bufferedPages.values()) this.deliverPage(page);
    this.bufferedPages.clear();
    this.phase = 'live';
  }

  close(): void {
    this.phase = 'closed';
    this.sink = null;
    this.bufferedItems = [];
    this.bufferedPages.clear();
    this.bufferedBytesCount = 0;
  }

  private deliverItem(delta: ItemDelta): void {
    const view = this.items.get(delta.dataId);
    if (view && delta.version <= view.version) return;
    const held = view?.exists ?? false;
    const exists = delta.action === 'update';
    // Updated in place: this runs once per subscriber per message.
    if (view) {
      view.version = delta.version;
      view.exists = exists;
    } else {
      this.items.set(delta.dataId, { version: delta.version, exists });
    }
    // A client that never held the item has nothing to delete.
    if (exists || held) this.sink?.write(delta.frame);
  }

  private deliverPage(page: PageDelta): void {
    if (page.seq <= (this.pageSeq.get(page.slug) ?? -1)) return;
    this.pageSeq.set(page.slug, page.seq);
    // A recompute that found what the client already has is not news.
    if (this.pageJson.get(page.slug) === page.json) return;
    this.pageJson.set(page.slug, page.json);
    this.sink?.write(page.frame);
  }
}
