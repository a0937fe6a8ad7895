/**
 * Server-Sent Events framing. Payloads are JSON on one `data:` line (JSON.stringify never emits a
 * raw newline), so a frame is `event: <name>\ndata: <json>\n\n`. Frames are plain strings so the
 * hub can build one and write the same string to every subscriber.
 */

/** One SSE message with an event name and a JSON payload. */
export const sseEvent = (event: string, payload: unknown): string => `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;

/** A comment line: ignored by every SSE client, keeps proxies and idle-timeouts from closing the stream. */
export const HEARTBEAT_FRAME = ': ping\n\n';

/** Why the server ends a stream; the client is expected to reconnect (and gets a fresh snapshot). */
export type ReconnectReason = 'cycle' | 'shutdown' | 'key_revoked' | 'slow_consumer' | 'plan_changed' | 'resync_failed';

/**
 * The `retry:` field: how long an EventSource waits before it reconnects by itself after the
 * connection closes (browsers and the `eventsource` package honour it). Part of the message it
 * precedes; a message may carry it with its event.
 */
const retryLine = (retryMs: number | undefined): string => (retryMs === undefined ? '' : `retry: ${Math.max(0, Math.round(retryMs))}\n`);

/**
 * The last message of a stream the server ends on purpose. With `retryAfterMs` (shutdown,
 * slow_consumer, resync_failed) the client is asked to wait that long before reconnecting: in the
 * payload for clients that read it, and as `retry:` for a plain EventSource.
 */
export const reconnectFrame = (reason: ReconnectReason, retryAfterMs?: number): string =>
  retryAfterMs === undefined
    ? sseEvent('reconnect', { reason })
    : `${retryLine(retryAfterMs)}${sseEvent('reconnect', { reason, retryAfterMs: Math.round(retryAfterMs) })}`;

/** The first message of every stream; `retryMs` (jittered per stream) becomes its `retry:` line. */
export const connectedFrame = (connectionId: string, ttlMs: number, retryMs?: number): string =>
  `${retryLine(retryMs)}${sseEvent('connected', { connectionId, ttlMs })}`;

/**
 * An item update. `version` (the item stream's revision) is an addition to the specification's
 * fields: clients may use it to order or de-duplicate; clients that do not know it ignore it.
 */
export const itemUpdateFrame = (dataId: string, data: unknown, version: number): string =>
  sseEvent('update', { dataId, data, action: 'update', version });

/** An item deletion; `version` is omitted when the deleting revision is unknown (found missing on a re-sync). */
export const itemDeleteFrame = (dataId: string, version?: number): string =>
  sseEvent('delete', version === undefined ? { dataId, data: {}, action: 'delete' } : { dataId, data: {}, action: 'delete', version });

/**
 * A delta with its position as the SSE `id` (docs/subscriptions.md, "Positions"): the client's
 * EventSource sends it back as `Last-Event-ID` when it reconnects, and the stream resumes after it.
 * Snapshot frames carry no id, so a connection that drops mid-snapshot resumes from where it was.
 */
export const withId = (position: number, frame: string): string => `id: ${position}\n${frame}`;

/** The end of the snapshot (or of a resume's catch-up): everything up to `position` has been sent. */
export const readyFrame = (position: number): string => withId(position, sseEvent('ready', { position }));

/** A resume from a position older than the retained history: a full snapshot follows. */
export const resetFrame = (reason: 'position_expired'): string => sseEvent('reset', { reason });

/** A collection's page 1 as an `update` message, from its JSON (see collectionPageJson). */
export const collectionPageFrame = (json: string): string => `event: update\ndata: ${json}\n\n`;
