import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

/** What the fuzzer knows of the server it attacks: real ids, so that some requests go deep. */
export interface FuzzWorld {
  readonly port: number;
  readonly liveKey: string;
  readonly testKey: string;
  readonly adminToken: string;
  readonly slug: string;
  readonly dataIds: readonly string[];
  readonly keyId: string;
}

export interface FuzzRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer | null;
  /** Loopback address to send from (the admin throttles failed logins per address). */
  readonly from: string;
}

const nasty = fc.constantFrom('', '..', '.', '%', '%zz', '%00', '%ff%fe', '%2e%2e', '%2F', 'a'.repeat(16_384), '__proto__', 'constructor', 'ÿ', '😀', '\u0000', ' ', 'null', '-1', '1e309', 'NaN');
const segment = (known: readonly string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...known) },
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
    { weight: 2, arbitrary: nasty },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  );

const deepJson = fc.integer({ min: 60, max: 20_000 }).chain((depth) => fc.constantFrom('[', '{"a":').map((open) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`));
const jsonText = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"polluted":true}}', '{"data":{"__proto__":{"x":1}}}', '{"dataIds":["a"],"fields":["__proto__","constructor"]}', '{"constructor":{"prototype":{"x":1}}}') },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
);

/** A body shaped like a valid one of the route, then mutated, or junk. */
const bodyText = (world: FuzzWorld) =>
  fc.oneof(
    { weight: 3, arbitrary: jsonText },
    { weight: 2, arbitrary: fc.record({ dataIds: fc.array(segment(world.dataIds), { maxLength: 120 }), fields: fc.option(fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }), { nil: undefined }) }).map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.record({ data: fc.jsonValue({ maxDepth: 4 }) }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.array(fc.oneof(jsonText, fc.constant('{"dataId":"fz1","data":{"a":1}}')), { maxLength: 6 }).map((lines) => lines.join('\n')) },
  );

const encoded = (text: fc.Arbitrary<string>) =>
  fc.tuple(text, fc.constantFrom('identity', 'gzip', 'br', 'deflate', 'gzip-corrupt', 'br-corrupt', 'gzip-bomb', 'bogus')).map(([body, how]) => {
    const raw = Buffer.from(body);
    switch (how) {
      case 'gzip':
        return { encoding: 'gzip', bytes: gzipSync(raw) };
      case 'br':
        return { encoding: 'br', bytes: brotliCompressSync(raw) };
      case 'deflate':
        return { encoding: 'deflate', bytes: deflateSync(raw) };
      case 'gzip-corrupt':
        return { encoding: 'gzip', bytes: Buffer.concat([gzipSync(raw).subarray(0, 12), Buffer.from('garbage!')]) };
      case 'br-corrupt':
        return { encoding: 'br', bytes: Buffer.from('not brotli at all') };
      case 'gzip-bomb':
        return { encoding: 'gzip', bytes: GZIP_BOMB };
      case 'bogus':
        return { encoding: 'x-bogus', bytes: raw };
      default:
        return { encoding: null, bytes: raw };
    }
  });

/** 64 MiB of zeros in about 64 KB. */
const GZIP_BOMB = gzipSync(Buffer.alloc(64 * 2 ** 20), { level: 9 });

const maybeHeader = (name: string, values: fc.Arbitrary<string>) => fc.option(values.map((value) => [name, value] as const), { nil: null, freq: 3 });

const queryString = (world: FuzzWorld) =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom('page', 'limit', 'sort', 'order', 'apiKey', 'collections', 'dataIds', 'granularity', 'from', 'to', 'keyId', 'x'),
        fc.oneof(fc.constantFrom('1', '0', '-1', '100', '101', 'asc', 'desc', 'createdAt', 'price', world.liveKey, world.testKey, world.slug, world.dataIds.join(','), 'hour'), fc.string({ maxLength: 30 })),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`));

const request = (world: FuzzWorld, paths: fc.Arbitrary<string>, extraHeaders: fc.Arbitrary<readonly (readonly [string, string] | null)[]>, from: (headers: readonly (readonly [string, string])[], octet: number) => string) =>
  fc
    .record({
      method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') }, { weight: 1, arbitrary: fc.constantFrom('TRACE', 'PROPFIND', 'get', 'BREW') }),
      path: paths,
      query: queryString(world),
      extra: extraHeaders,
      common: fc.tuple(
        maybeHeader('Origin', fc.constantFrom('https://example.com', 'http://localhost:3000', 'null', 'not a url', 'https://evil.example')),
        maybeHeader('Referer', fc.constantFrom('https://example.com/page', '::::', 'http://127.0.0.1/x')),
        maybeHeader('Content-Type', fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/x-ndjson', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'bogus/type')),
        maybeHeader('Idempotency-Key', fc.oneof(fc.constantFrom('k1', 'k2'), fc.string({ maxLength: 300 }))),
        maybeHeader('If-None-Match', fc.constantFrom('*', 'W/"abc"', '"x"')),
      ),
      body: fc.option(encoded(bodyText(world)), { nil: null, freq: 2 }),
      octet: fc.integer({ min: 2, max: 250 }),
    })
    .map(({ method, path, query, extra, common, body, octet }): FuzzRequest => {
      const headers = [...extra, ...common].filter((header): header is readonly [string, string] => header !== null && /^[\x20-\x7e]*$/.test(header[1]));
      if (body?.encoding) headers.push(['Content-Encoding', body.encoding]);
      return { method, target: `${path}${query}`, headers, body: body?.bytes ?? null, from: from(headers, octet) };
    });

export const publicRequests = (world: FuzzWorld): fc.Arbitrary<FuzzRequest> =>
  request(
    world,
    fc.oneof(
      segment(world.dataIds).map((id) => `/public/data/${id}`),
      fc.constant('/public/batch'),
      segment([world.slug]).map((slug) => `/public/collections/${slug}/data`),
      fc.constant('/subscribe'),
      fc.constantFrom('/healthz', '/readyz', '/openapi.json', '/', '/public', '/PUBLIC/batch', '//public/batch'),
      fc.array(segment(['public', 'data', 'x']), { maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
    ),
    fc.tuple(maybeHeader('X-API-Key', fc.oneof(fc.constantFrom(world.liveKey, world.testKey, 'pk_live_', ''), fc.string({ maxLength: 60 })))),
    () => '127.0.0.1',
  );

export const adminRequests = (world: FuzzWorld): fc.Arbitrary<FuzzRequest> =>
  request(
    world,
    fc.oneof(
      fc.constantFrom('/admin/collections', '/admin/keys', '/admin/plan', '/admin/usage', '/healthz', '/readyz', '/', '/dashboard', '/dashboard/sign-in', '/dashboard/keys', '/metrics'),
      segment([world.slug]).map((slug) => `/admin/collections/${slug}`),
      fc.tuple(segment([world.slug]), segment(world.dataIds)).map(([slug, id]) => `/admin/collections/${slug}/items/${id}`),
      segment([world.slug]).map((slug) => `/admin/collections/${slug}/items:import`),
      segment([world.keyId]).map((id) => `/admin/keys/${id}`),
      fc.array(segment(['admin', 'ADMIN', 'keys', 'dashboard', '..']), { maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
    ),
    fc.tuple(maybeHeader('Authorization', fc.oneof(fc.constant(`Bearer ${world.adminToken}`), fc.constantFrom('Bearer nope', 'Basic abc', ''), fc.string({ maxLength: 40 })))),
    // Failed logins are throttled per address: only good-token requests come from 127.0.0.1.
    (headers, octet) => (headers.some(([name, value]) => name === 'Authorization' && value === `Bearer ${world.adminToken}`) ? '127.0.0.1' : `127.0.0.${octet}`),
  );

/** The bytes of the request on the wire (HTTP/1.1, one request per connection). */
export const encodeRequest = (request: FuzzRequest, port: number): Buffer => {
  const head = [`${request.method} ${request.target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', ...request.headers.map(([name, value]) => `${name}: ${value}`)];
  if (request.body !== null) head.push(`Content-Length: ${request.body.length}`);
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), request.body ?? Buffer.alloc(0)]);
};
