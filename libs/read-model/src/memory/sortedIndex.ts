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

/** First position in `list` whose entry is not below (key, dataId). */
const lowerBound = (list: readonly string[], keys: ReadonlyMap<string, SortKey>, key: SortKey, dataId: string): number => {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const other = list[mid] as string;
    if (compareSortEntries({ key: keys.get(other) ?? null, dataId: other }, { key, dataId }) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** Both lists ascending by (key, dataId): items with a value, then items without one by dataId. */
const sortAll = (keys: ReadonlyMap<string, SortKey>): { present: string[]; missing: string[] } => {
  const withKey: { key: SortKey; dataId: string }[] = [];
  const without: string[] = [];
  for (const [dataId, key] of keys) {
    if (key === null) without.push(dataId);
    else withKey.push({ key, dataId });
  }
  withKey.sort((a, b) => compareSortEntries(a, b));
  without.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { present: withKey.map((e) => e.dataId), missing: without };
};

/** A page over the two lists: present values in `order`, missing ones last in either order. */
const slicePage = (present: readonly string[], missing: readonly string[], order: SortOrder, offset: number, limit: number): string[] => {
  const p = present.length;
  const end = Math.min(offset + limit, p + missing.length);
  const out: string[] = [];
  for (let i = offset; i < end; i++) {
    const id = order === 'asc'
      ? (i < p ? present[i] : missing[i - p])
      : (i < p ? present[p - 1 - i] : missing[missing.length - 1 - (i - p)]);
    out.push(id as string);
  }
  return out;
};

export const createSortedIndex = (): SortedIndex => {
  const keys = new Map<string, SortKey>();
  // Null while dropped (after many writes without a read); rebuilt by the next page.
  let lists: { present: string[]; missing: string[] } | null = null;
  let writesSinceRead = 0;

  const keyOf = (dataId: string): SortKey => keys.get(dataId) ?? null;
  const listFor = (key: SortKey): string[] | undefined => (key === null ? lists?.missing : lists?.present);

  const remove = (dataId: string, key: SortKey): void => {
    const list = listFor(key);
    if (!list) return;
    const at = lowerBound(list, keys, key, dataId);
    if (list[at] === dataId) list.splice(at, 1);
  };

  /** Whether the lists are kept up to date by this write (false once they were dropped). */
  const noteWrite = (): boolean => {
    if (!lists) return false;
    if (++writesSinceRead > REBUILD_AFTER) {
      lists = null;
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
      const list = incremental ? listFor(key) : undefined;
      if (list) list.splice(lowerBound(list, keys, key, dataId), 0, dataId);
    },
    delete(dataId) {
      if (!keys.has(dataId)) return;
      if (noteWrite()) remove(dataId, keyOf(dataId));
      keys.delete(dataId);
    },
    page(order, offset, limit) {
      lists ??= sortAll(keys);
      writesSinceRead = 0;
      return slicePage(lists.present, lists.missing, order, offset, limit);
    },
  };
};
