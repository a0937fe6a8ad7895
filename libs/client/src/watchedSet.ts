/** What the stream watches. */
export interface WatchedSet {
  collections: string[];
  dataIds: string[];
}

/** The set in a canonical order, so two sets with the same members compare equal. */
export function normalizeWatchedSet(set: WatchedSet): WatchedSet {
  return { collections: [...set.collections].sort(), dataIds: [...set.dataIds].sort() };
}

/** A string that is equal for equal (normalized) sets. */
export function watchedSetKey(set: WatchedSet): string {
  return JSON.stringify([set.collections, set.dataIds]);
}

/** True when nothing is watched: no stream is needed. */
export function isEmptyWatchedSet(set: WatchedSet): boolean {
  return set.collections.length === 0 && set.dataIds.length === 0;
}

/** The query of `/subscribe` for the set: the key, and each list comma-joined when not empty. */
export function subscribeQuery(apiKey: string, set: WatchedSet): Record<string, string> {
  const query: Record<string, string> = { apiKey };
  if (set.collections.length > 0) query.collections = set.collections.join(',');
  if (set.dataIds.length > 0) query.dataIds = set.dataIds.join(',');
  return query;
}
