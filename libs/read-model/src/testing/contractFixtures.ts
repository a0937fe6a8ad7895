import type { ReadModelOp } from '../projectionStore.js';
import type { ReadModel, SortOrder } from '../readModel.js';
import type { CollectionRecord, ItemRecord, KeyRecord } from '../records.js';
import type { Stores } from '../stores.js';

/** Records and ops for the contract suites (and for adapter tests that need a record quickly). */

const T0 = Date.UTC(2026, 0, 1);
const iso = (offsetMs: number): string => new Date(T0 + offsetMs).toISOString();

/** `times.position` defaults to the version (positions only need to grow per record for most cases). */
export const itemRecord = (
  dataId: string,
  collectionId: string,
  version: number,
  data: Record<string, unknown> = {},
  times: { created?: number; updated?: number; position?: number } = {},
): ItemRecord => ({
  id: `id-${dataId}`,
  dataId,
  collectionId,
  data,
  createdAt: iso(times.created ?? 0),
  updatedAt: iso(times.updated ?? times.created ?? 0),
  version,
  position: times.position ?? version,
});

export const collectionRecord = (slug: string, version: number, sortableFields: CollectionRecord['sortableFields'] = [], position = version): CollectionRecord => ({
  slug,
  name: `Collection ${slug}`,
  sortableFields,
  createdAt: iso(0),
  updatedAt: iso(0),
  version,
  position,
});

export const keyRecord = (keyId: string, version: number, name = 'key'): KeyRecord => ({
  keyId,
  keyHash: `hash-${keyId}`,
  name,
  type: 'live',
  last4: 'abcd',
  allowedDomains: ['example.com'],
  rateLimit: 100,
  createdAt: iso(0),
  version,
});

export const put = (item: ItemRecord): ReadModelOp => ({ kind: 'item.put', item });
export const del = (dataId: string, collectionId: string, version: number, position = version): ReadModelOp => ({ kind: 'item.delete', dataId, collectionId, version, position });
export const putCollection = (collection: CollectionRecord): ReadModelOp => ({ kind: 'collection.put', collection });
export const cp = (position: number) => ({ projection: 'items', position });
export const ids = (items: readonly ItemRecord[]): string[] => items.map((i) => i.dataId);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A page that must exist. */
export const pageOf = async (readModel: ReadModel, slug: string, sort: string, order: SortOrder, offset = 0, limit = 100) => {
  const result = await readModel.getCollectionPage(slug, { sort, order, offset, limit });
  if (!result) throw new Error(`collection ${slug} missing`);
  return result;
};

// What each contract suite needs from the adapter under test: the port it checks, and the
// projection store that writes what the port reads (a `Stores` record fits every one).
export type ProjectionStoreSubject = Pick<Stores, 'projections' | 'readModel' | 'keys'>;
export type ReadModelSubject = Pick<Stores, 'projections' | 'readModel'>;
export type KeyStoreSubject = Pick<Stores, 'projections' | 'keys'>;
export type UsageStoreSubject = Pick<Stores, 'usage'>;

export interface ContractOptions<S> {
  /** Called after each test with the stores the factory gave. */
  readonly teardown?: (subject: S) => Promise<void>;
  /**
   * Empties the backend under the stores as FLUSHALL would (records, checkpoints, the lease and its
   * token counter), for the fencing cases; every adapter that can lose its data passes one.
   */
  readonly wipe?: (subject: S) => Promise<void>;
}

export interface ReadModelContractOptions<S> extends ContractOptions<S> {
  /** Runs of the property test (backends over the network want fewer). */
  readonly numRuns?: number;
}
