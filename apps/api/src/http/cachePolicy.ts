/**
 * The Cache-Control of public reads (docs/public-api.md, "Caching and compression"). Always
 * `private`: an answer depends on the API key (401/403/429, the rate-limit headers, the metered
 * call, and CORS for the key's domains), so a shared cache (CDN, proxy) must never hand one key's
 * answer to another request. A browser's own cache may keep it, revalidating with the ETag.
 */
export interface CachePolicy {
  /** CACHE_MAX_AGE_SECONDS: how long a browser may reuse an answer without asking (0: always revalidate). */
  readonly maxAgeSeconds: number;
  /** CACHE_STALE_WHILE_REVALIDATE_SECONDS: how long past that it may show it while revalidating (0: not sent). */
  readonly staleWhileRevalidateSeconds: number;
}

export const DEFAULT_CACHE_POLICY: CachePolicy = Object.freeze({ maxAgeSeconds: 0, staleWhileRevalidateSeconds: 0 });

/** The header value, computed once per app (not per request). */
export const cacheControlValue = (policy: CachePolicy): string =>
  policy.staleWhileRevalidateSeconds > 0
    ? `private, max-age=${policy.maxAgeSeconds}, stale-while-revalidate=${policy.staleWhileRevalidateSeconds}`
    : `private, max-age=${policy.maxAgeSeconds}`;
