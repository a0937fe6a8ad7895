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
};

/** What every keyed answer carries once the rate limit was counted. */
export const RATE_HEADERS = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;
