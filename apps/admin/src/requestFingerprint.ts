import { createHash } from 'node:crypto';
import { ValidationError } from '@pubstream/domain';

/** Deeper JSON than this is refused before it can exhaust the stack (the body layer caps it lower). */
const MAX_CANONICAL_DEPTH = 256;

const canonical = (value: unknown, depth: number): string => {
  if (depth > MAX_CANONICAL_DEPTH) throw new ValidationError('JSON nested too deeply');
  if (Array.isArray(value)) return `[${value.map((entry) => canonical(entry ?? null, depth + 1)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    // Own keys only, sorted by UTF-16 code units; `__proto__` from JSON.parse is an ordinary key here.
    const keys = Object.keys(value).sort();
    const object = value as Record<string, unknown>;
    const members = keys.filter((key) => object[key] !== undefined).map((key) => `${JSON.stringify(key)}:${canonical(object[key], depth + 1)}`);
    return `{${members.join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  // Strings, finite numbers (ECMAScript shortest form: 1.0 and 1 are both "1"), booleans, null.
  return JSON.stringify(value) ?? 'null';
};

/**
 * A JSON value as canonical text (RFC 8785, JSON Canonicalization Scheme): object keys sorted,
 * no whitespace, numbers in their shortest round-trip form. Two bodies that parse to the same
 * value — whatever their key order, spacing or number spelling — give the same text.
 */
export const canonicalJson = (value: unknown): string => canonical(value, 0);

export interface FingerprintedRequest {
  readonly method: string;
  /** The route that matched (its template, e.g. `/admin/collections/:slug`), not the raw path. */
  readonly route: string;
  /** The route's parameters, decoded by the router. */
  readonly params: Readonly<Record<string, string>>;
  /** The parsed JSON body (`{}` when there is none). */
  readonly body: unknown;
}

/**
 * What an Idempotency-Key is bound to (docs/admin-api.md): SHA-256 (hex) of the method, the
 * matched route with its decoded parameters, and the canonical JSON of the body. Spelling the same
 * path differently (`/ADMIN/…`, percent-encoding) or reordering the body's keys is the same
 * request; anything else is another one.
 */
export const requestFingerprint = (request: FingerprintedRequest): string =>
  createHash('sha256')
    .update(canonicalJson({ method: request.method.toUpperCase(), route: request.route, params: request.params, body: request.body }))
    .digest('hex');
