import { ValidationError } from '@pubstream/domain';
import {
  FencedError,
  type CollectionRecord,
  type ItemRecord,
  type KeyRecord,
  type KeyUsage,
  type Lease,
  type PageQuery,
  type PlanRecord,
  type ReadModel,
  type ReadModelOp,
} from './readModel.js';
import { createSortedIndex, type SortedIndex } from './sortedIndex.js';
import { sortKeyOf, sortKindOf, type SortKind } from './sortKeys.js';
import { usageBucketOf, usageBucketsBetween } from './usageBuckets.js';

export interface MemoryReadModelOptions {
  /** Clock for lease expiry. */
  readonly now?: () => Date;
}

interface Membership {
  readonly members: Set<string>;
  /** Built on the first page query that sorts by the field, then maintained by every write. */
  readonly indexes: Map<string, { kind: SortKind; index: SortedIndex }>;
}

interface UsageState {
  requestCount: number;
  lastUsedAt: string | null;
  readonly buckets: Map<string, number>;
}

/** Whether `version` is newer than the stored (or tombstone) version; records it when so. */
const guard = (versions: Map<string, number>, id: string, version: number): boolean => {
  const stored = versions.get(id);
  if (stored !== undefined && version <= stored) return false;
  versions.set(id, version);
  return true;
};

/** Checks a page query's numbers; the API validates user input, this guards other callers. */
export const checkPageQuery = (query: PageQuery): void => {
  if (!Number.isSafeInteger(query.offset) || query.offset < 0) throw new ValidationError('offset must be an integer ≥ 0');
  if (!Number.isSafeInteger(query.limit) || query.limit < 0) throw new ValidationError('limit must be an integer ≥ 0');
  if (query.order !== 'asc' && query.order !== 'desc') throw new ValidationError('order must be asc or desc');
};

/**
 * The read model in process memory: the embedded profile's adapter, rebuilt from the event log at
 * start. Every op is applied synchronously, so each op (and each batch) is atomic.
 */
export const createMemoryReadModel = (options: MemoryReadModelOptions = {}): ReadModel => {
  const now = options.now ?? (() => new Date());

  const items = new Map<string, ItemRecord>();
  const itemVersions = new Map<string, number>();
  const collections = new Map<string, CollectionRecord>();
  const collectionVersions = new Map<string, number>();
  const memberships = new Map<string, Membership>();
  const keysById = new Map<string, KeyRecord>();
  const keysByHash = new Map<string, KeyRecord>();
  const keyVersions = new Map<string, number>();
  const planVersions = new Map<string, number>();
  let plan: PlanRecord | null = null;
  const checkpoints = new Map<string, number>();
  const leases = new Map<string, { holder: string; token: number; expiresAt: number }>();
  const leaseTokens = new Map<string, number>();
  const usage = new Map<string, UsageState>();

  const membershipOf = (slug: string): Membership => {
    let membership = memberships.get(slug);
    if (!membership) {
      membership = { members: new Set(), indexes: new Map() };
      memberships.set(slug, membership);
    }
    return membership;
  };

  const leave = (item: ItemRecord): void => {
    const membership = memberships.get(item.collectionId);
    if (!membership) return;
    membership.members.delete(item.dataId);
    for (const { index } of membership.indexes.values()) index.delete(item.dataId);
  };

  const enter = (item: ItemRecord): void => {
    const membership = membershipOf(item.collectionId);
    membership.members.add(item.dataId);
    for (const [field, { kind, index }] of membership.indexes) index.set(item.dataId, sortKeyOf(item, field, kind));
  };

  const applyOp = (op: ReadModelOp): boolean => {
    switch (op.kind) {
      case 'item.put': {
        const { item } = op;
        if (!guard(itemVersions, item.dataId, item.version)) return false;
        const previous = items.get(item.dataId);
        if (previous && previous.collectionId !== item.collectionId) leave(previous);
        items.set(item.dataId, item);
        enter(item);
        return true;
      }
      case 'item.delete': {
        if (!guard(itemVersions, op.dataId, op.version)) return false;
        const previous = items.get(op.dataId);
        if (previous) leave(previous);
        items.delete(op.dataId);
        return true;
      }
      case 'collection.put': {
        const { collection } = op;
        if (!guard(collectionVersions, collection.slug, collection.version)) return false;
        collections.set(collection.slug, collection);
        const membership = memberships.get(collection.slug);
        // A field whose declaration went away or changed type is rebuilt on its next use.
        for (const [field, { kind }] of membership?.indexes ?? []) {
          if (sortKindOf(collection, field) !== kind) membership?.indexes.delete(field);
        }
        return true;
      }
      case 'collection.delete': {
        if (!guard(collectionVersions, op.slug, op.version)) return false;
        collections.delete(op.slug);
        memberships.delete(op.slug);
        return true;
      }
      case 'key.put': {
        const { key } = op;
        if (!guard(keyVersions, key.keyId, key.version)) return false;
        const previous = keysById.get(key.keyId);
        if (previous && previous.keyHash !== key.keyHash) keysByHash.delete(previous.keyHash);
        keysById.set(key.keyId, key);
        keysByHash.set(key.keyHash, key);
        return true;
      }
      case 'key.delete': {
        if (!guard(keyVersions, op.keyId, op.version)) return false;
        const previous = keysById.get(op.keyId);
        keysById.delete(op.keyId);
        for (const hash of [op.keyHash, previous?.keyHash]) {
          if (hash !== undefined && keysByHash.get(hash)?.keyId === op.keyId) keysByHash.delete(hash);
        }
        return true;
      }
      case 'plan.put': {
        if (!guard(planVersions, 'plan', op.plan.version)) return false;
        plan = op.plan;
        return true;
      }
      default: {
        const _never: never = op;
        throw new ValidationError(`Unknown read model op ${JSON.stringify(_never)}`);
      }
    }
  };

  const liveLease = (name: string) => {
    const lease = leases.get(name);
    return lease && lease.expiresAt > now().getTime() ? lease : undefined;
  };

  const usageOf = (keyId: string): UsageState => {
    let state = usage.get(keyId);
    if (!state) {
      state = { requestCount: 0, lastUsedAt: null, buckets: new Map() };
      usage.set(keyId, state);
    }
    return state;
  };

  return {
    async apply(ops, checkpoint, applyOptions) {
      const lease = applyOptions?.lease;
      if (lease && liveLease(lease.name)?.token !== lease.token) throw new FencedError();
      const applied = ops.map(applyOp);
      checkpoints.set(checkpoint.projection, Math.max(checkpoints.get(checkpoint.projection) ?? 0, checkpoint.position));
      return applied;
    },

    async acquireLease(name, holder, ttlMs) {
      const current = liveLease(name);
      if (current && current.holder !== holder) return null;
      const token = (leaseTokens.get(name) ?? 0) + 1;
      leaseTokens.set(name, token);
      leases.set(name, { holder, token, expiresAt: now().getTime() + ttlMs });
      return { name, holder, token };
    },
    async renewLease(lease: Lease, ttlMs) {
      const current = liveLease(lease.name);
      if (current?.token !== lease.token) return false;
      current.expiresAt = now().getTime() + ttlMs;
      return true;
    },
    async releaseLease(lease) {
      if (leases.get(lease.name)?.token === lease.token) leases.delete(lease.name);
    },
    async getCheckpoint(projection) {
      return checkpoints.get(projection) ?? 0;
    },

    async getItem(dataId) {
      return items.get(dataId) ?? null;
    },
    async getItems(dataIds) {
      return dataIds.map((id) => items.get(id) ?? null);
    },
    async getCollection(slug) {
      return collections.get(slug) ?? null;
    },
    async listCollections() {
      return [...collections.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1));
    },
    async getCollectionPage(slug, query) {
      checkPageQuery(query);
      const collection = collections.get(slug);
      if (!collection) return null;
      const kind = sortKindOf(collection, query.sort);
      if (!kind) throw new ValidationError(`Unknown sort field "${query.sort}"`);
      const membership = membershipOf(slug);
      let entry = membership.indexes.get(query.sort);
      if (!entry) {
        entry = { kind, index: createSortedIndex() };
        for (const dataId of membership.members) {
          const item = items.get(dataId);
          if (item) entry.index.set(dataId, sortKeyOf(item, query.sort, kind));
        }
        membership.indexes.set(query.sort, entry);
      }
      const ids = entry.index.page(query.order, query.offset, query.limit);
      return { items: ids.map((id) => items.get(id) as ItemRecord), total: membership.members.size };
    },
    async countItems(slug) {
      return memberships.get(slug)?.members.size ?? 0;
    },
    async getKeyByHash(keyHash) {
      return keysByHash.get(keyHash) ?? null;
    },
    async getKey(keyId) {
      return keysById.get(keyId) ?? null;
    },
    async listKeys() {
      return [...keysById.values()].sort((a, b) => (a.keyId < b.keyId ? -1 : 1));
    },
    async getPlan() {
      return plan;
    },

    async recordUsage(counts) {
      for (const { keyId, at, count } of counts) {
        const state = usageOf(keyId);
        state.requestCount += count;
        const iso = at.toISOString();
        if (state.lastUsedAt === null || iso > state.lastUsedAt) state.lastUsedAt = iso;
        for (const granularity of ['hour', 'day', 'month'] as const) {
          const bucket = usageBucketOf(at, granularity);
          state.buckets.set(bucket, (state.buckets.get(bucket) ?? 0) + count);
        }
      }
    },
    async getUsage(keyIds) {
      return keyIds.map((keyId): KeyUsage => {
        const state = usage.get(keyId);
        return { keyId, requestCount: state?.requestCount ?? 0, lastUsedAt: state?.lastUsedAt ?? null };
      });
    },
    async getUsageSeries(keyId, granularity, from, to) {
      const buckets = usage.get(keyId)?.buckets;
      return usageBucketsBetween(from, to, granularity).map((bucket) => ({ bucket, count: buckets?.get(bucket) ?? 0 }));
    },

    async ping() {},
    async close() {},
  };
};
