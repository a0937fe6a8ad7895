import type { ItemRecord } from '@pubstream/read-model';
import type { PageRead } from './collectionPageReader.js';
import type { SnapshotReads } from './hubReads.js';
import type { SubscriptionSnapshot } from './streamSubscription.js';

export interface StreamSnapshot extends SubscriptionSnapshot {
  /** Subscribed collections that do not exist (the route answers 404 before the stream starts). */
  readonly missingSlugs: readonly string[];
}

/** Where a snapshot comes from: item reads, shared page reads, and the hub's item frames. */
export interface SnapshotSources {
  readonly reads: Pick<SnapshotReads, 'getItems'>;
  readonly pages: { read(slug: string, notBefore: number): Promise<PageRead> };
  itemFrame(record: ItemRecord): string;
}

/**
 * Reads what a stream needs to be current (docs/subscriptions.md, "the hand-off"): each subscribed
 * item (null when missing) and each collection's page 1 from a read issued after `notBefore` (the
 * moment the stream started buffering), items and pages at the same time.
 */
export const readStreamSnapshot = async (
  sources: SnapshotSources,
  subscription: { readonly dataIds: readonly string[]; readonly slugs: readonly string[] },
  notBefore: number,
): Promise<StreamSnapshot> => {
  const { dataIds, slugs } = subscription;
  const [records, pages] = await Promise.all([
    dataIds.length > 0 ? sources.reads.getItems(dataIds) : Promise.resolve([]),
    Promise.all(slugs.map((slug) => sources.pages.read(slug, notBefore))),
  ]);
  const items = new Map<string, ItemRecord | null>();
  dataIds.forEach((dataId, index) => items.set(dataId, records[index] ?? null));
  return {
    items,
    pages,
    missingSlugs: pages.filter((page) => page.missing).map((page) => page.slug),
    itemFrame: sources.itemFrame,
  };
};
