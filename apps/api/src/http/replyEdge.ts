import type { Context } from 'koa';
import { cacheControlValue, DEFAULT_CACHE_POLICY, type CachePolicy } from './cachePolicy.js';
import { isNotModified, type Validators } from './conditionalRequest.js';
import { compress, createCodingChooser, type ContentCoding } from './replyEncoding.js';

/** A public read's answer: the JSON body serialized once, and its validators. */
export interface Reply extends Validators {
  readonly body: string;
}

export interface ReplyEdgeOptions {
  readonly cache?: CachePolicy;
  /** COMPRESSION_MIN_BYTES: shorter bodies go uncompressed (default 1024). */
  readonly compressionMinBytes?: number;
}

/** How a keyed route answers with a Reply: caching headers, 304, compression. */
export interface ReplyEdge {
  /** `position`: the log position the reply reflects, sent as `X-Position` (on 304s too). */
  send(ctx: Context, reply: Reply, position?: number): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The HTTP side of public reads (docs/public-api.md, "Caching and compression"): Cache-Control,
 * ETag, Last-Modified and Vary on every 200 and 304; 304 for a matching If-None-Match or
 * If-Modified-Since; br or gzip for bodies over the threshold. A cached reply (itemReply,
 * pageReply, replyCache.ts) is compressed once per coding and version, then reused, so the hot
 * path pays a map lookup, not a compression. Never used for /subscribe: an event stream is not
 * compressed (each frame must reach the client when written).
 */
export const createReplyEdge = (options: ReplyEdgeOptions = {}): ReplyEdge => {
  const cacheControl = cacheControlValue(options.cache ?? DEFAULT_CACHE_POLICY);
  const minBytes = options.compressionMinBytes ?? 1_024;
  const chooseCoding = createCodingChooser();
  // Per reply object: the cached replies keep theirs; a batch answer's goes with it.
  const encoded = new WeakMap<Reply, Partial<Record<ContentCoding, Promise<Buffer>>>>();

  const encodedBody = (reply: Reply, coding: ContentCoding): Promise<Buffer> => {
    let codings = encoded.get(reply);
    if (!codings) encoded.set(reply, (codings = {}));
    return (codings[coding] ??= compress(reply.body, coding));
  };

  return {
    async send(ctx, reply, position) {
      setCacheHeaders(ctx, reply, cacheControl);
      if (position !== undefined && Number.isFinite(position)) ctx.set('X-Position', String(position));
      if (isNotModified({ ifNoneMatch: ctx.get('If-None-Match'), ifModifiedSince: ctx.get('If-Modified-Since'), method: ctx.method }, reply)) {
        ctx.status = 304;
        return;
      }
      ctx.status = 200;
      // The full header value, not ctx.type: skips Koa's per-request MIME lookup.
      ctx.set('Content-Type', JSON_TYPE);
      // body.length counts UTF-16 units, never more than the UTF-8 bytes: a safe lower bound.
      const coding = reply.body.length >= minBytes ? chooseCoding(ctx.headers['accept-encoding'], () => ctx.acceptsEncodings('br', 'gzip', 'identity')) : null;
      if (coding === null) {
        ctx.body = reply.body;
        return;
      }
      const bytes = await encodedBody(reply, coding);
      ctx.set('Content-Encoding', coding);
      ctx.body = bytes;
    },
  };
};

/**
 * Headers a 200 and its 304 both carry (RFC 9110 §15.4.5). `Vary: Accept-Encoding` on every
 * answer, compressed or not: the same URL may be answered either way. Origin, Referer and
 * X-API-Key are added before the key check (publicAccess.ts, varyOnAccess).
 */
export const setCacheHeaders = (ctx: Context, reply: Validators, cacheControl: string): void => {
  ctx.vary('Accept-Encoding');
  ctx.set('Cache-Control', cacheControl);
  if (reply.etag !== null) ctx.set('ETag', reply.etag);
  if (reply.lastModified !== null) ctx.set('Last-Modified', reply.lastModified);
};
