import type { PageResult } from '@pubstream/read-model';
import { collectionPageJson, STREAM_PAGE_QUERY } from './collectionPage.js';
import type { SnapshotReads } from './hubReads.js';
import { collectionPageFrame } from './sseFrames.js';
import type { PageDelta } from './streamDeltas.js';

/** A page 1 read: its frame, and whether the collection was missing (deleted or never created). */
export interface PageRead extends PageDelta {
  readonly missing: boolean;
}

interface CollectionReads {
  inflight: { readonly seq: number; readonly promise: Promise<PageRead> } | null;
  /** The last page read, so that a read finding the same page reuses its strings. */
  last: { readonly json: string; readonly frame: string } | null;
}

/**
 * Reads page 1 of collections for the hub (docs/subscriptions.md, "the hand-off"). Every read gets a
 * sequence number in the order reads are issued: a read with a higher one reflects at least as
 * many writes. A read already in flight is shared by every caller that can use it (issued after
 * the caller's `notBefore`), so the snapshots of many reconnecting clients share one read.
 */
export class CollectionPageReader {
  private lastSeq = 0;
  private readCount = 0;
  private readonly collections = new Map<string, CollectionReads>();

  constructor(private readonly source: Pick<SnapshotReads, 'getCollectionPage'>) {}

  /** The sequence number of the last read issued: reads issued from now on are above it. */
  get seq(): number {
    return this.lastSeq;
  }

  /** Reads issued so far (shared reads counted once). */
  get reads(): number {
    return this.readCount;
  }

  /** Page 1 of a collection, from a read issued after `notBefore` (an in-flight one is shared). */
  read(slug: string, notBefore: number): Promise<PageRead> {
    const state = this.stateOf(slug);
    if (state.inflight && state.inflight.seq > notBefore) return state.inflight.promise;
    const seq = ++this.lastSeq;
    this.readCount++;
    const promise = this.source.getCollectionPage(slug, STREAM_PAGE_QUERY).then((result) => this.pageOf(state, slug, seq, result));
    const read = { seq, promise };
    state.inflight = read;
    const clear = (): void => {
      if (state.inflight === read) state.inflight = null;
    };
    promise.then(clear, clear);
    return promise;
  }

  /** No stream follows the collection any more. */
  forget(slug: string): void {
    this.collections.delete(slug);
  }

  private stateOf(slug: string): CollectionReads {
    let state = this.collections.get(slug);
    if (!state) this.collections.set(slug, (state = { inflight: null, last: null }));
    return state;
  }

  private pageOf(state: CollectionReads, slug: string, seq: number, result: PageResult | null): PageRead {
    const json = collectionPageJson(slug, result);
    // Streams keep the page they sent (and a slow one, the frame it has yet to send): a page read
    // again unchanged shares the strings of the last read, so that a thousand snapshots of a big
    // page taken at different moments hold it once, not a thousand times.
    if (state.last?.json !== json) state.last = { json, frame: collectionPageFrame(json) };
    return { slug, seq, json: state.last.json, frame: state.last.frame, missing: result === null };
  }
}
