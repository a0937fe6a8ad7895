import { compareSortEntries, type SortKey } from './sortKeys.js';
import type { SortOrder } from '../readModel.js';

/**
 * One sort order over a collection's items, in memory. Keeps each item's sort key always; keeps
 * the sorted arrays only while they pay off: a write to a built index is applied by binary search
 * (O(log n) compares + one splice), but after REBUILD_AFTER writes without a read in between
 * (an import, a replay) the arrays are dropped and the next read sorts once (O(n log n)).
 * Reads then slice: page 2,000 costs what page 1 costs.
 */
export interface SortedIndex {
  readonly size: number;
  set(dataId: string, key: SortKey): void;
  delete(dataId: string): void;
  /** dataIds of the page: present values in `order`, ties by dataId in `order`, missing last. */
  page(order: SortOrder, offset: number, limit: number): string[];
}

const REBUILD_AFTER = 256;

export const createSortedIndex = (): SortedIndex => {
  const keys = new Map<string, SortKey>();
  // Both ascending by (key, dataId); `missing` holds the items without a value, by dataId.
  let present: string[] | null = null;
  let missing: string[] | null = null;
  let writesSinceRead = 0;

  const keyOf = (dataId: string): SortKey => keys.get(dataId) ?? null;

  /** First position whose entry is not below (key, dataId). */
  const lowerBound = (list: string[], key: SortKey, dataId: string): number => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = list[mid] as string;
      if (compareSortEntries({ key: keyOf(other), dataId: other }, { key, dataId }) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const remove = (dataId: string, key: SortKey): void => {
    const list = key === null ? missing : present;
    if (!list) return;
    const at = lowerBound(list, key, dataId);
    if (list[at] === dataId) list.splice(at, 1);
  };

  const build = (): void => {
    const withKey: { key: SortKey; dataId: string }[] = [];
    const without: string[] = [];
    for (const [dataId, key] of keys) {
      if (key === null) without.push(dataId);
      else withKey.push({ key, dataId });
    }
    withKey.sort((a, b) => compareSortEntries(a, b));
    without.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    present = withKey.map((e) => e.dataId);
    missing = without;
  };

  const noteWrite = (): boolean => {
    if (!present) return false;
    if (++writesSinceRead > REBUILD_AFTER) {
      present = null;
      missing = null;
      return false;
    }
    return true;
  };

  return {
    get size() {
      return keys.size;
    },
    set(dataId, key) {
      const had = keys.has(dataId);
      const incremental = noteWrite();
      // Removal searches with the old key, so it runs before the map learns the new one.
      if (incremental && had) remove(dataId, keyOf(dataId));
      keys.set(dataId, key);
      if (incremental) {
        const list = (key === null ? missing : present) as string[];
        list.splice(lowerBound(list, key, dataId), 0, dataId);
      }
    },
    delete(dataId) {
      if (!keys.has(dataId)) return;
      if (noteWrite()) remove(dataId, keyOf(dataId));
      keys.delete(dataId);
    },
    page(order, offset, limit) {
      if (!present || !missing) build();
      writesSinceRead = 0;
      const withKey = present as string[];
      const without = missing as string[];
      const p = withKey.length;
      const end = Math.min(offset + limit, p + without.length);
      const out: string[] = [];
      for (let i = offset; i < end; i++) {
        const id = order === 'asc'
          ? (i < p ? withKey[i] : without[i - p])
          : (i < p ? withKey[p - 1 - i] : without[without.length - 1 - (i - p)]);
        out.push(id as string);
      }
      return out;
    },
  };
};
