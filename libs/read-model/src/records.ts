import type { ItemData, KeyType, PlanName, SortableField } from '@pubstream/domain';

/**
 * The records the projector writes and the read ports serve (docs/read-models.md). Every record
 * carries `version`, the revision of the stream that produced it: writes are guarded by it.
 */

export interface ItemRecord {
  /** Internal id (uuid). */
  readonly id: string;
  readonly dataId: string;
  /** Slug of the owning collection. */
  readonly collectionId: string;
  readonly data: ItemData;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Revision of the item's stream that produced this record. */
  readonly version: number;
  /** Global log position of the event that produced this version (docs/read-models.md, Positions). */
  readonly position: number;
}

export interface CollectionRecord {
  readonly slug: string;
  readonly name: string;
  readonly sortableFields: readonly SortableField[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly version: number;
  /** Global log position of the event that produced this version. */
  readonly position: number;
}

export interface KeyRecord {
  readonly keyId: string;
  readonly keyHash: string;
  readonly name: string;
  readonly type: KeyType;
  /** Last four characters of the key, for the masked form `pk_live_…abcd`. */
  readonly last4: string;
  readonly allowedDomains: readonly string[];
  readonly rateLimit: number;
  readonly createdAt: string;
  readonly version: number;
}

export interface PlanRecord {
  readonly plan: PlanName;
  readonly monthlyQuota: number | null;
  readonly version: number;
}
