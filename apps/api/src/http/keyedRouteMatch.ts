/** The keyed reads that bypass the general middleware chain (docs/public-api.md, "Hot path"). */
export type KeyedRouteName = 'item' | 'batch' | 'collectionPage';

export interface KeyedRouteMatch {
  readonly name: KeyedRouteName;
  /** The router's pattern, as the router sets it (`_matchedRoute`: metrics labels, error logs). */
  readonly pattern: string;
  readonly params: Record<string, string>;
}

const ITEM_PREFIX = '/public/data/';
const COLLECTIONS_PREFIX = '/public/collections/';
const PAGE_SUFFIX = '/data';

/**
 * A path segment the router would hand over unchanged: non-empty, no `/`, and no `%` (the router
 * percent-decodes parameters; a segment without escapes decodes to itself). `.` and `..` are
 * left to the router too.
 */
const plainSegment = (segment: string): boolean =>
  segment.length > 0 && segment !== '.' && segment !== '..' && !segment.includes('/') && !segment.includes('%');

/**
 * The keyed route a request goes to, when its method and URL are in their one canonical spelling:
 * exact lower-case path, no trailing slash, no escape in the parameter, no fragment. Anything else
 * (null) goes through the Koa chain and its router, which answer it as before (the router also
 * matches case-insensitively and with a trailing slash): the fast path only ever takes requests
 * the router would route to the same handler with the same parameters.
 */
export const matchKeyedRoute = (method: string | undefined, url: string | undefined): KeyedRouteMatch | null => {
  if (url === undefined || url.includes('#')) return null;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (method === 'GET' || method === 'HEAD') {
    if (path.startsWith(ITEM_PREFIX)) {
      const dataId = path.slice(ITEM_PREFIX.length);
      return plainSegment(dataId) ? { name: 'item', pattern: '/public/data/:dataId', params: { dataId } } : null;
    }
    if (path.startsWith(COLLECTIONS_PREFIX) && path.endsWith(PAGE_SUFFIX)) {
      const slug = path.slice(COLLECTIONS_PREFIX.length, -PAGE_SUFFIX.length);
      return plainSegment(slug) ? { name: 'collectionPage', pattern: '/public/collections/:slug/data', params: { slug } } : null;
    }
    return null;
  }
  if (method === 'POST' && path === '/public/batch') return { name: 'batch', pattern: '/public/batch', params: {} };
  return null;
};
