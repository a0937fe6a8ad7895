import { matchesIfNoneMatch } from './etag.js';

/** The validators of an answer: weak ETag and HTTP-date of its last change, each null when it has none. */
export interface Validators {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

/**
 * Whether a conditional request can be answered 304 (RFC 9110 §13.2.2): If-None-Match when the
 * request has one (If-Modified-Since is then ignored), else If-Modified-Since on GET and HEAD,
 * true when the answer's last change is not after the date the client holds. A POST batch honours
 * If-None-Match too: it is a read that uses POST only for its body (docs/public-api.md,
 * "Caching and compression").
 */
export const isNotModified = (headers: { ifNoneMatch: string; ifModifiedSince: string; method: string }, validators: Validators): boolean => {
  if (headers.ifNoneMatch) return validators.etag !== null && matchesIfNoneMatch(headers.ifNoneMatch, validators.etag);
  if (!headers.ifModifiedSince || validators.lastModified === null) return false;
  if (headers.method !== 'GET' && headers.method !== 'HEAD') return false;
  const since = Date.parse(headers.ifModifiedSince);
  // An unparsable date is ignored (RFC 9110 §13.1.3): the full answer.
  return !Number.isNaN(since) && Date.parse(validators.lastModified) <= since;
};

/** An ISO 8601 time as an HTTP-date (whole seconds, as the header allows). */
export const httpDate = (iso: string): string | null => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : new Date(time).toUTCString();
};
