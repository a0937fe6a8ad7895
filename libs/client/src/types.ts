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
  /** The log position this read reflects (the response's `X-Position`), when the server sent one. */
  position?: number;
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
  /**
   * The log position this read reflects (`X-Position`), when the server sent one. A batch split
   * into several requests has the lowest of theirs: following changes from it misses nothing.
   */
  position?: number;
}

/** Response of `GET /public/collections/{slug}/data`. */
export interface CollectionPage {
  data: ItemSummary[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  /**
   * The log position this page reflects (`X-Position` of a read; absent on stream updates): follow
   * the collection's changes from it with {@link PubstreamClient.changes}.
   */
  position?: number;
}

/** Sort direction of a collection page. */
export type SortOrder = 'asc' | 'desc';

/** Options common to every request method. */
export interface RequestOptions {
  /** Aborts the request, including any retry wait in progress. */
  signal?: AbortSignal;
  /**
   * Read-your-writes: the server waits (bounded) until it has applied this log position (e.g. the
   * `X-Position` of your write) before it answers; 503 (retried) when it cannot in time.
   */
  minPosition?: number;
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

/** Payload of the stream's `ready` event: everything up to `position` has been sent. */
export interface ReadyEvent {
  position: number;
}

/** One entry of a collection's changes feed (`GET /public/collections/{slug}/changes`). */
export interface ItemChange {
  /** The change's log position: resume after it. */
  position: number;
  dataId: string;
  action: 'update' | 'delete';
  /** The item's revision after the change. */
  version: number;
  /** The item's data after an update; `{}` after a delete. */
  data: ItemData;
}

/** Options of {@link PubstreamClient.changes}. */
export interface ChangesOptions extends RequestOptions {
  /** Yield the changes after this position (a page's `position`, or the last change's). Default 0. */
  since?: number;
  /** Changes per request, 1–1000 (server default 100). */
  limit?: number;
  /** Keep polling for new changes once caught up (default `true`); `false` ends when caught up. */
  follow?: boolean;
  /** Wait between polls once caught up. Default 1000 ms. */
  pollIntervalMs?: number;
}

/** Payload of a `reconnect` event; `reason` is `cycle`, `shutdown`, `key_revoked`, `slow_consumer`, … */
export interface ReconnectEvent {
  reason: string;
  /** How long the server asks the client to wait before reconnecting (shutdown, slow_consumer, resync_failed). */
  retryAfterMs?: number;
}
