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

/** One retained item change (docs/read-models.md, "Change history"). */
export interface HistoryChange {
  readonly position: number;
  readonly dataId: string;
  readonly collectionId: string;
  readonly action: 'update' | 'delete';
  readonly version: number;
  readonly data: unknown;
}

/**
 * What the hub reads to give streams positions (docs/subscriptions.md, "Positions"): the applied
 * position of the read model and the retained item changes, for resumes and change-stream gaps.
 */
export interface PositionReads {
  /** Everything up to this position is applied to the read model being read. */
  appliedPosition(): Promise<number>;
  /** The lowest P from which "every change after P" is still retained. */
  historyFloor(): Promise<number>;
  /** Every change of these items with after < position ≤ until, in position order; 'expired' when after < floor. */
  itemChanges(dataIds: readonly string[], after: number, until: number): Promise<readonly HistoryChange[] | 'expired'>;
}

/** The position reads of a read model and its change history (the stores of one backend). */
export const positionReadsOf = (stores: {
  readonly readModel: Pick<PositionReads, 'appliedPosition'>;
  readonly history: Pick<PositionReads, 'historyFloor' | 'itemChanges'>;
}): PositionReads => ({
  appliedPosition: () => stores.readModel.appliedPosition(),
  historyFloor: () => stores.history.historyFloor(),
  itemChanges: (dataIds, after, until) => stores.history.itemChanges(dataIds, after, until),
});

/** Where the hub reads the project's plan when a plan change message arrives. */
export interface PlanReads {
  getPlan(): Promise<{ readonly plan: PlanName } | null>;
}
