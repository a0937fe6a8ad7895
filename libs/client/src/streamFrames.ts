import { BadRequestError, ForbiddenError, NotFoundError, type PubstreamError, UnauthorizedError } from './errors.js';
import type { StreamEventLike } from './eventSourceResolver.js';
import type { CollectionPage, ItemData } from './types.js';

/** The JSON payload of a stream event, or undefined when it is missing or not JSON. */
export function parseFrame<T>(event: StreamEventLike): T | undefined {
  try {
    return JSON.parse(String(event.data)) as T;
  } catch {
    return undefined;
  }
}

/** What an `update` event changes: an item, a collection's first page, or nothing the client knows. */
export type UpdateFrame =
  | { kind: 'item'; dataId: string; data: ItemData }
  | { kind: 'collection'; slug: string; page: CollectionPage }
  | { kind: 'other' };

/** Reads an `update` event; undefined when its payload is not JSON. */
export function readUpdateFrame(event: StreamEventLike): UpdateFrame | undefined {
  const payload = parseFrame<{ dataId?: string; collectionSlug?: string; data: unknown }>(event);
  if (!payload) return undefined;
  if (typeof payload.collectionSlug === 'string') return { kind: 'collection', slug: payload.collectionSlug, page: payload.data as CollectionPage };
  if (typeof payload.dataId === 'string') return { kind: 'item', dataId: payload.dataId, data: (payload.data ?? {}) as ItemData };
  return { kind: 'other' };
}

/** The dataId a `delete` event removes, if it names one. */
export function readDeleteFrame(event: StreamEventLike): string | undefined {
  const payload = parseFrame<{ dataId?: string }>(event);
  return payload && typeof payload.dataId === 'string' ? payload.dataId : undefined;
}

/**
 * How long after `connected` a stream without `reconnect` is taken as silently dead: the server
 * jitters the announced lifetime by ±10 %, so well past that. Undefined when no lifetime was announced.
 */
export function staleStreamAfterMs(ttlMs: number | undefined): number | undefined {
  return ttlMs !== undefined && ttlMs > 0 ? ttlMs * 1.25 + 5_000 : undefined;
}

/** Errors that a new attempt cannot fix. Only Node's `eventsource` reports the status; browsers do not. */
export function fatalStreamError(event: StreamEventLike): PubstreamError | undefined {
  const message = event.message ?? 'Subscription refused';
  switch (event.code) {
    case 400:
      return new BadRequestError(400, 'Bad Request', message);
    case 401:
      return new UnauthorizedError(401, 'Unauthorized', message);
    case 403:
      return new ForbiddenError(403, 'Forbidden', message);
    case 404:
      return new NotFoundError(404, 'Not Found', message);
    default:
      return undefined;
  }
}
