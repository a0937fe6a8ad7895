import type { PlanName } from '@pubstream/domain';
import type { ItemRecord, PageQuery, PageResult } from '@pubstream/read-model';

/**
 * What the hub reads for snapshots, re-syncs and page recomputes. A local interface, not a slice
 * of a port: any adapter with these two methods fits, whichever port they end up in.
 */
export interface SnapshotReads {
  getItems(dataIds: readonly string[]): Promise<readonly (ItemRecord | null)[]>;
  getCollectionPage(slug: string, query: PageQuery): Promise<PageResult | null>;
}

/** Where the hub reads the project's plan when a plan change message arrives. */
export interface PlanReads {
  getPlan(): Promise<{ readonly plan: PlanName } | null>;
}
