import type { ItemRecord } from '@pubstream/read-model';
import type { PositionReads } from './hubReads.js';

/** An item as a snapshot sends it. */
export interface SnapshotItem {
  readonly dataId: string;
  readonly data: unknown;
  readonly version: number;
}

/** The subscribed items exactly as they were at `position` (null where missing). */
export interface ItemsAtPosition {
  readonly items: ReadonlyMap<string, SnapshotItem | null>;
  readonly position: number;
}

/**
 * Makes the records of a snapshot exactly the state at one position (docs/subscriptions.md,
 * "Positions"). `before` is the applied position read before the records: the records reflect it
 * and perhaps a few later changes. The snapshot's position is the highest of `before` and the
 * records' positions; the subscribed items' changes in (before, position] are read from the
 * history and the latest one of each item wins, so that an item read just before a change and
 * another read just after it still describe one moment. Usually nothing is read: the records are
 * all older than `before`.
 */
export const itemsAtPosition = async (
  history: Pick<PositionReads, 'itemChanges'>,
  dataIds: readonly string[],
  records: readonly (ItemRecord | null)[],
  before: number,
): Promise<ItemsAtPosition> => {
  const items = new Map<string, SnapshotItem | null>();
  let position = before;
  dataIds.forEach((dataId, index) => {
    const record = records[index] ?? null;
    items.set(dataId, record && { dataId, data: record.data, version: record.version });
    if (record) position = Math.max(position, record.position);
  });
  if (position === before) return { items, position };
  const changes = await history.itemChanges(dataIds, before, position);
  // 'expired' cannot happen for a position the read model has just applied; the records stand then.
  if (changes !== 'expired') {
    for (const change of changes) items.set(change.dataId, change.action === 'update' ? { dataId: change.dataId, data: change.data, version: change.version } : null);
  }
  return { items, position };
};
