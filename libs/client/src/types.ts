/** Free-form content of a data item, as stored by the operator. */
export type ItemData = Record<string, unknown>;

/** A data item as returned by `GET /public/data/{dataId}`. */
export interface DataItem {
  /** Internal identifier of the item. */
  id: string;
  /** Caller-visible unique identifier of the item. */
  dataId: string;
  /** Identifier of the owning collection. */
  collectionId: string;
  /** Free-form content of the item. */
  data: ItemData;
  /** ISO 8601 UTC timestamp. */
  createdAt: string;
  /** ISO 8601 UTC timestamp. */
  updatedAt: string;
}

/** An item inside a batch result or a collection page: only `dataId` and `data`. */
export interface ItemSummary {
  dataId: string;
  data: ItemData;
}

/** Response of `POST /public/batch`. */
export interface BatchResult {
  /** Found items, in request order. */
  data: ItemSummary[];
  /** Count of items found. */
  found: number;
  /** Requested identifiers that were not found, in request order. */
  notFound: string[];
}

/** Response of `GET /public/collections/{slug}/data`. */
export interface CollectionPage {
  data: ItemSummary[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

/** Sort direction of a collection page. */
export type SortOrder = 'asc' | 'desc';

/** Options common to every request method. */
export interface RequestOptions {
  /** Aborts the request, including any retry wait in progress. */
  signal?: AbortSignal;
}

/** Options of {@link PubstreamClient.fetchBatch}. */
export interface FetchBatchOptions extends RequestOptions {
  /** Top-level keys of `data` to keep in each item. */
  fields?: string[];
}

/** Options of {@link PubstreamClient.fetchCollection}. Omitted values use the server defaults. */
export interface FetchCollectionOptions extends RequestOptions {
  /** Page number, from 1 (server default 1). */
  page?: number;
  /** Items per page, 1–100 (server default 20). */
  limit?: number;
  /** Field to sort by (server default `createdAt`). */
  sort?: string;
  /** `asc` or `desc` (server default `desc`). */
  order?: SortOrder;
}

/** Payload of the stream's `connected` event. */
export interface ConnectedEvent {
  connectionId: string;
  ttlMs: number;
}

/** Payload of an item `update` event. */
export interface ItemUpdateEvent {
  dataId: string;
  data: ItemData;
  action: 'update';
}

/** Payload of a collection `update` event. */
export interface CollectionUpdateEvent {
  collectionSlug: string;
  data: CollectionPage;
  action: 'update';
}

/** Payload of a `delete` event. */
export interface ItemDeleteEvent {
  dataId: string;
  data: Record<string, never>;
  action: 'delete';
}

/** Payload of a `reconnect` event; `reason` is `cycle`, `shutdown`, `key_revoked`, `slow_consumer`, … */
export interface ReconnectEvent {
  reason: string;
  /** How long the server asks the client to wait before reconnecting (shutdown, slow_consumer, resync_failed). */
  retryAfterMs?: number;
}
