import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 15, findings 3 and 11, over real HTTP on both APIs of the embedded profile: one body layer
// (encodings, decompressed size, nesting depth, `__proto__`), one wording for the same failure,
// and echoed input cut short.

let server: AllInOne;
let apiKey: string;

const adminHeaders = () => ({ Authorization: `Bearer ${server.adminToken}` });

beforeAll(async () => {
  server = await startAllInOne();
  const admin = async (method: string, path: string, body: unknown) =>
    fetch(`${server.adminUrl}${path}`, { method, headers: { ...adminHeaders(), 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  await admin('POST', '/admin/collections', { slug: 'books', name: 'Books' });
  await admin('PUT', '/admin/collections/books/items/dune', { data: { title: 'Dune' } });
  apiKey = ((await admin('POST', '/admin/keys', { name: 'edge', type: 'test' })) as { key: string }).key;
});
afterAll(async () => {
  await server?.stop();
});

type Send = (body: string | Buffer, headers?: Record<string, string>) => Promise<Response>;
const asBody = (body: string | Buffer) => (typeof body === 'string' ? body : new Uint8Array(body));
/** The same body sent to a JSON route of each API. */
const routes: [string, Send][] = [
  ['public POST /public/batch', (body, headers = {}) => fetch(`${server.publicUrl}/public/batch`, { method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json', ...headers }, body: asBody(body) })],
  ['admin PUT item', (body, headers = {}) => fetch(`${server.adminUrl}/admin/collections/books/items/edge-item`, { method: 'PUT', headers: { ...adminHeaders(), 'Content-Type': 'application/json', ...headers }, body: asBody(body) })],
];

const expectError = async (response: Response, status: number, message: string | RegExp): Promise<string> => {
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { error: string; message: string };
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
  return body.message;
};

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** A PUT body `{"data":{"a": <arrays>}}` that is `depth` levels deep in all. */
const putBodyOfDepth = (depth: number) => `{"data":{"a":${nested(depth - 2)}}}`;

describe('content encodings, on both APIs', () => {
  // 128 MiB of spaces each, compressed once up front (compressing blocks the in-process server).
  const bombs: [string, Buffer][] = [];
  beforeAll(() => {
    const spaces = Buffer.alloc(128 * 1024 * 1024, 0x20);
    bombs.push(['gzip', gzipSync(spaces)], ['deflate', deflateSync(spaces)], ['br', brotliCompressSync(spaces, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })]);
  });

  it('decodes gzip, x-gzip, deflate and br bodies', async () => {
    const batch = JSON.stringify({ dataIds: ['dune'] });
    for (const [encoding, encode] of [['gzip', gzipSync], ['x-gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
      const response = await routes[0]![1](encode(Buffer.from(batch)), { 'Content-Encoding': encoding });
      expect(response.status, encoding).toBe(200);
      expect(await response.json()).toEqual({ data: [{ dataId: 'dune', data: { title: 'Dune' } }], found: 1, notFound: [] });
    }
    const put = await routes[1]![1](brotliCompressSync(Buffer.from('{"data":{"n":1}}')), { 'Content-Encoding': 'br' });
    expect([200, 201]).toContain(put.status);
  });

  it.each(routes)('%s: corrupt gzip and brotli bodies are 400, not 500', async (_name, send) => {
    const corruptGzip = Buffer.concat([gzipSync(Buffer.from('{"dataIds":["dune"]}')).subarray(0, 12), Buffer.from('not really deflate data')]);
    await expectError(await send(corruptGzip, { 'Content-Encoding': 'gzip' }), 400, 'Request body is not valid gzip data');
    await expectError(await send(Buffer.from('definitely not brotli, no no no'), { 'Content-Encoding': 'br' }), 400, 'Request body is not valid br data');
  });

  it.each(routes)('%s: gzip, deflate and brotli bombs are 413 and never inflated past the cap', async (_name, send) => {
    for (const [encoding, bomb] of bombs) {
      expect(bomb.length).toBeLessThan(1024 * 1024);
      await expectError(await send(bomb, { 'Content-Encoding': encoding }), 413, 'Request body is larger than 1 MiB');
    }
  });

  it.each(routes)('%s: an unknown encoding is 415', async (_name, send) => {
    await expectError(await send('{}', { 'Content-Encoding': 'compress' }), 415, 'Unsupported Content-Encoding: use gzip, deflate, br or identity');
  });
});

describe('JSON nesting and __proto__, on both APIs', () => {
  it.each(routes)('%s: 10,000 levels deep is 400 JSON nested too deeply', async (_name, send) => {
    await expectError(await send(putBodyOfDepth(10_000)), 400, 'JSON nested too deeply');
  });

  it('64 levels are accepted, 65 are not', async () => {
    const send = routes[1]![1];
    expect((await send(putBodyOfDepth(64))).status).toBeLessThan(300);
    await expectError(await send(putBodyOfDepth(65)), 400, 'JSON nested too deeply');
    await expectError(await routes[0]![1](`{"dataIds":["dune"],"x":${nested(64)}}`), 400, 'JSON nested too deeply');
  });

  it.each(routes)('%s: a __proto__ key anywhere is 400 naming it', async (_name, send) => {
    await expectError(await send('{"__proto__":{"polluted":true},"dataIds":["dune"],"data":{}}'), 400, 'JSON key "__proto__" is not allowed');
    await expectError(await send('{"dataIds":["dune"],"data":{"deep":{"\\u005f_proto__":1}}}'), 400, 'JSON key "__proto__" is not allowed');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('constructor and prototype are ordinary data keys, stored, read and picked like any other', async () => {
    const put = await routes[1]![1]('{"data":{"constructor":"c","prototype":{"p":1},"hasOwnProperty":2}}');
    expect(put.status).toBeLessThan(300);
    const item = await fetch(`${server.publicUrl}/public/data/edge-item`, { headers: { 'X-API-Key': apiKey } });
    expect(((await item.json()) as { data: unknown }).data).toEqual({ constructor: 'c', prototype: { p: 1 }, hasOwnProperty: 2 });
    const picked = await routes[0]![1](JSON.stringify({ dataIds: ['edge-item'], fields: ['constructor', 'hasOwnProperty', 'toString', '__proto__'] }));
    expect(await picked.json()).toEqual({ data: [{ dataId: 'edge-item', data: { constructor: 'c', hasOwnProperty: 2 } }], found: 1, notFound: [] });
  });
});

describe('one wording for the same failure in both APIs', () => {
  it('malformed JSON, a wrong media type and a body over 1 MiB read the same', async () => {
    const messages: string[][] = [];
    for (const [, send] of routes) {
      messages.push([
        await expectError(await send('{"dataIds": ['), 400, /./),
        await expectError(await send('{}', { 'Content-Type': 'text/plain' }), 415, /./),
        await expectError(await send(JSON.stringify({ data: { pad: 'x'.repeat(1024 * 1024) } })), 413, /./),
      ]);
    }
    expect(messages[0]).toEqual(['Request body is not valid JSON', 'Content-Type must be application/json', 'Request body is larger than 1 MiB']);
    expect(messages[1]).toEqual(messages[0]);
  });

  it('unknown routes and wrong methods read the same, with Allow', async () => {
    await expectError(await fetch(`${server.publicUrl}/nope`), 404, 'No route for GET /nope');
    await expectError(await fetch(`${server.adminUrl}/admin/nope`, { headers: adminHeaders() }), 404, 'No route for GET /admin/nope');
    const publicWrong = await fetch(`${server.publicUrl}/public/batch`, { headers: { 'X-API-Key': apiKey } });
    expect(publicWrong.headers.get('allow')).toBe('POST');
    await expectError(publicWrong, 405, 'Method GET not allowed; allowed: POST');
    const adminWrong = await fetch(`${server.adminUrl}/admin/keys`, { method: 'PUT', headers: adminHeaders() });
    expect(adminWrong.headers.get('allow')).toBe('HEAD, GET, POST');
    await expectError(adminWrong, 405, 'Method PUT not allowed; allowed: HEAD, GET, POST');
  });
});

describe('echoed input is cut short', () => {
  const long = 'a'.repeat(15_000);
  const cut = (message: string) => {
    expect(message.length).toBeLessThan(300);
    expect(message).toContain(`${'a'.repeat(100)}…`);
  };

  it('in 404 answers for long slugs, key ids and paths on both APIs', async () => {
    // A public collection's 404 echoes nothing: the specification's `Data not found`.
    expect(await expectError(await fetch(`${server.publicUrl}/public/collections/${long}/data`, { headers: { 'X-API-Key': apiKey } }), 404, /^Data not found$/)).toBe('Data not found');
    cut(await expectError(await fetch(`${server.adminUrl}/admin/collections/${long}`, { headers: adminHeaders() }), 404, /not found/));
    cut(await expectError(await fetch(`${server.adminUrl}/admin/keys/${long}`, { headers: adminHeaders() }), 404, /not found/));
    cut(await expectError(await fetch(`${server.publicUrl}/${long}`), 404, /^No route for GET \/a+…$/));
    cut(await expectError(await fetch(`${server.adminUrl}/admin/${long}/x`, { headers: adminHeaders() }), 404, /^No route for GET \/admin\/a+…$/));
  });

  it('in validation messages that name a bad value', async () => {
    const domain = await fetch(`${server.adminUrl}/admin/keys`, {
      method: 'POST',
      headers: { ...adminHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x', type: 'test', allowedDomains: [`${long}.com`] }),
    });
    cut(await expectError(domain, 400, /allowed domain/));
    const key = await fetch(`${server.adminUrl}/admin/collections`, {
      method: 'POST',
      headers: { ...adminHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ slug: 'ok', name: 'ok', [long]: 1 }),
    });
    cut(await expectError(key, 400, /Unrecognized key/));
  });
});

describe('NDJSON import: each bad line fails alone', () => {
  const importBody = (body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(`${server.adminUrl}/admin/collections/books/items:import`, { method: 'POST', headers: { ...adminHeaders(), 'Content-Type': 'application/x-ndjson', ...headers }, body: asBody(body) });

  it('a malformed, a 10,000-deep, a __proto__ and a 2 MiB line are counted with their numbers; the others are written', async () => {
    const lines = [
      '{"dataId":"imp-1","data":{"n":1}}',
      '{"dataId":"imp-2",',
      `{"dataId":"imp-3","data":{"a":${nested(10_000)}}}`,
      '{"dataId":"imp-4","data":{"__proto__":{"x":1}}}',
      `{"dataId":"imp-5","data":{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}}`,
      '{"dataId":"imp-6","data":{"n":6}}',
      '{"dataId":"imp-7","data":{"n":7}}',
    ];
    const response = await importBody(lines.join('\n'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      lines: 7,
      created: 3,
      updated: 0,
      unchanged: 0,
      failed: 4,
      errors: [
        { line: 2, message: 'Malformed JSON' },
        { line: 3, message: 'JSON nested too deeply' },
        { line: 4, message: 'JSON key "__proto__" is not allowed' },
        { line: 5, message: 'Line is longer than 1 MiB' },
      ],
    });
    for (const dataId of ['imp-1', 'imp-6', 'imp-7']) expect(await server.readModel.getItem(dataId)).not.toBeNull();
    for (const dataId of ['imp-3', 'imp-4', 'imp-5']) expect(await server.readModel.getItem(dataId)).toBeNull();
  });

  it('decodes a gzip body; a corrupt one is 400 and writes nothing', async () => {
    const ok = await importBody(gzipSync(Buffer.from('{"dataId":"gz-1","data":{}}\n{"dataId":"gz-2","data":{}}\n')), { 'Content-Encoding': 'gzip' });
    expect(await ok.json()).toMatchObject({ lines: 2, created: 2, failed: 0 });
    const before = await server.eventStore.headPosition();
    await expectError(await importBody(Buffer.from('garbage that is not gzip'), { 'Content-Encoding': 'gzip' }), 400, 'Request body is not valid gzip data');
    expect(await server.eventStore.headPosition()).toBe(before);
  });
});
