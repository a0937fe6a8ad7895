/** What the index needs to know of a stream: whose key it uses and what it follows. */
export interface IndexedStream {
  readonly keyId: string;
  readonly dataIds: readonly string[];
  readonly slugs: readonly string[];
}

/** The items and collections that no stream follows any more once a stream is removed. */
export interface Unfollowed {
  readonly dataIds: readonly string[];
  readonly slugs: readonly string[];
}

const addTo = <K, V>(index: Map<K, Set<V>>, key: K, value: V): void => {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(value);
};

/** Removes `value` under each key; returns the keys left with no value (and drops them). */
const removeFrom = <K, V>(index: Map<K, Set<V>>, keys: Iterable<K>, value: V): K[] => {
  const emptied: K[] = [];
  for (const key of keys) {
    const set = index.get(key);
    if (!set) continue;
    set.delete(value);
    if (set.size === 0) {
      index.delete(key);
      emptied.push(key);
    }
  }
  return emptied;
};

/**
 * The node's streams, indexed by dataId, collection slug and key id (docs/subscriptions.md,
 * "Fanout"): a change message finds its subscribers in one lookup, and per-key counts are at hand.
 */
export class SubscriptionIndex<S extends IndexedStream> {
  private readonly streams = new Set<S>();
  private readonly byDataId = new Map<string, Set<S>>();
  private readonly bySlug = new Map<string, Set<S>>();
  private readonly byKey = new Map<string, Set<S>>();

  get size(): number {
    return this.streams.size;
  }

  add(stream: S): void {
    this.streams.add(stream);
    addTo(this.byKey, stream.keyId, stream);
    for (const dataId of stream.dataIds) addTo(this.byDataId, dataId, stream);
    for (const slug of stream.slugs) addTo(this.bySlug, slug, stream);
  }

  /** Removes a stream; returns what it was the last to follow (for the caches to forget). */
  remove(stream: S): Unfollowed {
    this.streams.delete(stream);
    const dataIds = removeFrom(this.byDataId, stream.dataIds, stream);
    const slugs = removeFrom(this.bySlug, stream.slugs, stream);
    removeFrom(this.byKey, [stream.keyId], stream);
    return { dataIds, slugs };
  }

  /** Every stream (a live view: copy it before removing streams while iterating). */
  all(): IterableIterator<S> {
    return this.streams.values();
  }

  /** The streams following an item; undefined when none does. */
  followingItem(dataId: string): ReadonlySet<S> | undefined {
    return this.byDataId.get(dataId);
  }

  /** The streams following a collection; undefined when none does. */
  followingCollection(slug: string): ReadonlySet<S> | undefined {
    return this.bySlug.get(slug);
  }

  followsItem(dataId: string): boolean {
    return this.byDataId.has(dataId);
  }

  followsCollection(slug: string): boolean {
    return this.bySlug.has(slug);
  }

  countForKey(keyId: string): number {
    return this.byKey.get(keyId)?.size ?? 0;
  }
}
