import { commonHeaders, type HeaderContract } from '@pubstream/http';
import { z } from 'zod';

/** The headers of the public API's contract (docs/public-api.md, "Rate limits", "Conditional requests"). */
export const publicHeaders: Readonly<Record<string, HeaderContract>> = {
  ...commonHeaders,
  'X-RateLimit-Limit': { description: 'Requests allowed per window for this key', schema: z.number().int().min(0) },
  'X-RateLimit-Remaining': { description: 'Requests that would still be admitted now, after this one (never negative)', schema: z.number().int().min(0) },
  'X-RateLimit-Reset': {
    description: 'Unix time in whole seconds: when Remaining is 0, when the next request is admitted; otherwise when the whole limit is free again',
    schema: z.number().int().min(0),
  },
  ETag: { description: 'A weak tag of the versions the body was made from; send it back in If-None-Match', schema: z.string().regex(/^W\/".*"$/) },
  'If-None-Match': { description: 'An ETag from an earlier answer: 304 while nothing changed', schema: z.string() },
  'Last-Event-ID': { description: 'Sent by EventSource on a reconnect: the last `id:` it received; resumes after that position (wins over `from`)', schema: z.string() },
  'If-Modified-Since': { description: 'A Last-Modified from an earlier answer: 304 while the item is unchanged (If-None-Match wins when both are sent)', schema: z.string() },
  'Last-Modified': { description: "The item's `updatedAt` as an HTTP date (single items only)", schema: z.string() },
  'Cache-Control': { description: '`private, max-age=N` (CACHE_MAX_AGE_SECONDS), plus `stale-while-revalidate=M` when set: the answer depends on the key', schema: z.string() },
  Vary: { description: 'Origin, Referer, X-API-Key, Accept-Encoding: every request header that can change the answer', schema: z.string() },
  'Content-Encoding': { description: '`br` or `gzip` for JSON over COMPRESSION_MIN_BYTES when the client accepts it (never the event stream)', schema: z.enum(['br', 'gzip']) },
  'X-Position': {
    description: 'The log position the read model had applied when the data was read (docs/public-api.md, Positions): pass it to `minPosition`, `changes?since=` or `/subscribe?from=`',
    schema: z.string().regex(/^[0-9]{1,15}$/),
  },
};

/** The headers of a cacheable answer (200 and 304). */
export const CACHE_HEADERS = ['Cache-Control', 'Vary', 'Content-Encoding'] as const;

/** What every keyed answer carries once the rate limit was counted. */
export const RATE_HEADERS = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;
