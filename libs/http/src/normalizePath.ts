import { ValidationError } from '@pubstream/domain';

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/** A request path whose percent-encoding is broken or is not UTF-8 (answered 400). */
export class MalformedPathError extends ValidationError {
  constructor() {
    super('The request path has malformed percent-encoding');
  }
}

/** `%61` → `a` for unreserved characters (RFC 3986 §6.2.2.2); other escapes keep their meaning, in upper case. */
const decodeUnreserved = (path: string): string =>
  path.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });

/** Drops empty, `.` and `..` segments (RFC 3986 §5.2.4); `..` never climbs above the root. */
const removeDotSegments = (path: string): string[] => {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out;
};

/**
 * The one spelling of a request path that the admin gate and the routers both see
 * (docs/security.md): unreserved escapes decoded, repeated and trailing slashes removed, dot
 * segments resolved. Case is kept: routes are matched case-sensitively, so `/ADMIN/keys` is simply
 * another (unknown, protected) path. `%2F` stays an escape, never a separator. Throws
 * MalformedPathError for a broken escape or bytes that are not UTF-8.
 */
export const normalizePath = (path: string): string => {
  if (MALFORMED_ESCAPE.test(path)) throw new MalformedPathError();
  try {
    decodeURIComponent(path);
  } catch {
    throw new MalformedPathError();
  }
  return `/${removeDotSegments(decodeUnreserved(path)).join('/')}`;
};
