import type { PageRead } from './collectionPageReader.js';
import type { HistoryChange, PositionReads, SnapshotReads } from './hubReads.js';
import { itemsAtPosition, type SnapshotItem } from './itemsAtPosition.js';

/** A fresh start: every subscribed item as it was at `position` (null where missing). */
export interface SnapshotStart {
  readonly kind: 'snapshot';
  /** The client asked to resume from a position older than the history: `reset` precedes the snapshot. */
  readonly reset: boolean;
  readonly items: ReadonlyMap<string, SnapshotItem | null>;
}

/** A resume: the subscribed items' changes after the client's position, up to `position`. */
export interface ResumeStart {
  readonly kind: 'resume';
  readonly changes: readonly HistoryChange[];
}

/**
 * What a stream sends before it goes live (docs/subscriptions.md, "Positions"): a snapshot or a
 * resume's catch-up, page 1 of each subscribed collection, then `ready` at `position`.
 */
export type StreamStart = (SnapshotStart | ResumeStart) & {
  readonly pages: readonly PageRead[];
  readonly position: number;
  /** Subscribed collections that do not exist (the route answers 404 before the stream starts). */
  readonly missingSlugs: readonly string[];
};

/** Where a start comes from: item reads, positions and history, shared page reads. */
export interface StartSources {
  readonly reads: Pick<SnapshotReads, 'getItems'>;
  readonly positions: PositionReads;
  readonly pages: { read(slug: string, notBefore: number): Promise<PageRead> };
}

interface Subscription {
  readonly dataIds: readonly string[];
  readonly slugs: readonly string[];
}

const readPages = (sources: StartSources, slugs: readonly string[], notBefore: number): Promise<PageRead[]> =>
  Promise.all(slugs.map((slug) => sources.pages.read(slug, notBefore)));

const withPages = (start: SnapshotStart | ResumeStart, pages: readonly PageRead[], position: number): StreamStart => ({
  ...start,
  pages,
  position,
  missingSlugs: pages.filter((page) => page.missing).map((page) => page.slug),
});

/**
 * The catch-up of a resume from `from`: every change of the subscribed items in (from, C] where C
 * is the applied position, or null when `from` is older than the retained history. Every
 * subscribed collection gets a fresh page 1: a page is recomputed a moment after the changes it
 * reflects, so the client's id may be ahead of the page it holds (docs/decisions.md).
 */
const readResume = async (sources: StartSources, subscription: Subscription, from: number, notBefore: number): Promise<StreamStart | null> => {
  const [floor, applied] = await Promise.all([sources.positions.historyFloor(), sources.positions.appliedPosition()]);
  if (from < floor) return null;
  // A client never goes back: the route waited for the node to reach `from` (a re-sync is at most there).
  const position = Math.max(from, applied);
  const [changes, pages] = await Promise.all([
    subscription.dataIds.length > 0 && position > from ? sources.positions.itemChanges(subscription.dataIds, from, position) : Promise.resolve([]),
    readPages(sources, subscription.slugs, notBefore),
  ]);
  if (changes === 'expired') return null;
  return withPages({ kind: 'resume', changes }, pages, position);
};

/** A snapshot exactly at one position (itemsAtPosition.ts), with the pages read after `notBefore`. */
const readSnapshot = async (sources: StartSources, subscription: Subscription, notBefore: number, reset: boolean): Promise<StreamStart> => {
  const before = await sources.positions.appliedPosition();
  const [records, pages] = await Promise.all([
    subscription.dataIds.length > 0 ? sources.reads.getItems(subscription.dataIds) : Promise.resolve([]),
    readPages(sources, subscription.slugs, notBefore),
  ]);
  const { items, position } = await itemsAtPosition(sources.positions, subscription.dataIds, records, before);
  return withPages({ kind: 'snapshot', reset, items }, pages, position);
};

/**
 * Reads what a stream sends before it goes live: with `from` (a resume), the changes after it, or
 * when it is too old, a snapshot announced by `reset`; without, a snapshot. Pages come from reads
 * issued after `notBefore` (the moment the stream started buffering).
 */
export const readStreamStart = async (sources: StartSources, subscription: Subscription, from: number | null, notBefore: number): Promise<StreamStart> => {
  if (from !== null) {
    const resume = await readResume(sources, subscription, from, notBefore);
    if (resume) return resume;
  }
  return readSnapshot(sources, subscription, notBefore, from !== null);
};
