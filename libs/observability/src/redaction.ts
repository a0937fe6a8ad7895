/**
 * What must never reach a log: API keys (header `X-API-Key`, query parameter `apiKey`, or a raw
 * `pk_live_…`/`pk_test_…` anywhere in a string), the admin bearer token (`Authorization`) and
 * session cookies. Redaction works on field names, on URLs and on free text, so a key cannot leak
 * through a logged request, an error message or a stray `msg` string.
 */
const REDACTED = '[Redacted]';

const SECRET_FIELD_NAMES = new Set([
  'x-api-key',
  'apikey',
  'api_key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'admintoken',
  'admin_token',
  'password',
  'token',
  'key',
  'rawkey',
]);

const API_KEY_IN_TEXT = /pk_(live|test)_[0-9A-Za-z]{8,}/g;
const API_KEY_QUERY_PARAM = /([?&;]apikey=)[^&#\s"']*/gi;
const BEARER_IN_TEXT = /(bearer\s+)[^\s"',]+/gi;
const MAX_DEPTH = 6;

/** Removes keys, tokens and `apiKey=` query values from free text (URLs, messages, stacks). */
export const redactText = (text: string): string =>
  text
    .replace(API_KEY_QUERY_PARAM, `$1${REDACTED}`)
    .replace(API_KEY_IN_TEXT, `pk_$1_${REDACTED}`)
    .replace(BEARER_IN_TEXT, `$1${REDACTED}`);

const isSecretField = (name: string): boolean => SECRET_FIELD_NAMES.has(name.toLowerCase());

/**
 * A redacted copy of a log object: secret-named fields are replaced, strings are cleaned with
 * `redactText`. Errors become plain objects (type, message, stack) so their text is cleaned too.
 */
export const redactValue = (value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown => {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[Object]';
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (value instanceof Error) {
    const plain: Record<string, unknown> = { type: value.name, message: redactText(value.message) };
    if (value.stack) plain.stack = redactText(value.stack);
    const withCode = value as Error & { code?: unknown; status?: unknown };
    if (withCode.code !== undefined) plain.code = withCode.code;
    if (withCode.status !== undefined) plain.status = withCode.status;
    if (value.cause !== undefined) plain.cause = redactValue(value.cause, depth + 1, seen);
    return plain;
  }
  if (Array.isArray(value)) return value.map((entry) => redactValue(entry, depth + 1, seen));
  if (value instanceof Date) return value.toISOString();
  const copy: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(value)) {
    // Numbers and booleans are never secrets (a lease's fencing `token` is a counter).
    const secret = isSecretField(name) && (typeof entry === 'string' || (typeof entry === 'object' && entry !== null));
    copy[name] = secret ? REDACTED : redactValue(entry, depth + 1, seen);
  }
  return copy;
};
