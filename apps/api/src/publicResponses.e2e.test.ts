import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@pubstream/observability';
import { createMemoryStores } from '@pubstream/read-model';
import { startApiHarness, type ApiHarness } from './testing/apiHarness.js';
import { rawRequest, type RawAnswer } from './testing/rawRequest.js';

// The whole answer of every kind of public read (status, every header but Date, the body), for a
// matrix of requests, against a recorded snapshot (__snapshots__/publicResponses.e2e.test.ts.snap).
// It pins the keyed routes' behaviour byte for byte, so that the hot path (docs/public-api.md,
// "Hot path") can change how they are served, not what they answer. Requests run in order:
// rate-limit counters and the access log depend on it.

const NOW = new Date('2026-05-01T12:00:00.000Z');
const GENERATED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Recorded {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  rawBodySha256?: string;
}


const decoded = (body: Buffer, coding: string | string[] | undefined): string => {
  if (body.length === 0) return '';
  if (coding === 'gzip') return gunzipSync(body).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(body).toString('utf8');
  return body.toString('utf8');
};

/** Every header but Date, names sorted; a generated request id as a placeholder. */
const recorded = (answer: RawAnswer): Recorded => {
  const headers: Recorded['headers'] = {};
  for (const name of Object.keys(answer.headers).sort()) {
    if (name === 'date') continue;
    const value = answer.headers[name];
    headers[name] = name === 'x-request-id' && typeof value === 'string' && GENERATED_ID.test(value) ? '<generated>' : value;
  }
  const coding = answer.headers['content-encoding'];
  const body = decoded(answer.body, coding);
  return coding ? { status: answer.status, headers, body, rawBodySha256: createHash('sha256').update(answer.body).digest('hex') } : { status: answer.status, headers, body };
};

describe('public reads: the full answers, pinned', () => {
  let h: ApiHarness;
  const logLines: Record<string, unknown>[] = [];
  const keys: Record<string, string> = {};
  const failing = new Set(['boom-1']);

  beforeAll(async () => {
    const stores = createMemoryStores({ now: () => NOW });
    // A read model whose backend fails for one id: the 503 answer.
    const getItem = stores.readModel.getItem.bind(stores.readModel);
    stores.readModel.getItem = (dataId) => (failing.has(dataId) ? Promise.reject(new Error('backend down')) : getItem(dataId));
    const destination = { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) };
    h = await startApiHarness({
      stores,
      now: () => NOW,
      logger: createLogger({ level: 'info', name: 'api-test', destination }),
      config: { accessLog: true, compressionMinBytes: 256, cache: { maxAgeSeconds: 5, staleWhileRevalidateSeconds: 30 }, minPositionWaitMs: 50 },
    });
    await h.collection('docs', [{ name: 'score', type: 'number' }]);
    for (let i = 0; i < 12; i++) {
      await h.item('docs', `doc-${i}`, { title: `Document ${i}`, score: i % 5, body: 'lorem ipsum '.repeat(i === 3 ? 60 : 2) }, { updatedAt: '2026-03-04T05:06:07.890Z' });
    }
    await h.item('docs', 'boom-1', { title: 'never read' });
    keys.live = (await h.key({ type: 'live' })).raw;
    keys.domains = (await h.key({ type: 'live', allowedDomains: ['app.example.com'] })).raw;
    keys.test = (await h.key({ type: 'test' })).raw;
    keys.limited = (await h.key({ type: 'live', rateLimit: 2 })).raw;
    const deleted = await h.key({ type: 'live' });
    keys.deleted = deleted.raw;
    await h.deleteKey(deleted.record);
  });
  afterAll(() => h.close());

  type Case = [name: string, method: string, path: string, headers?: Record<string, string>, body?: string];
  const ID = { 'X-Request-Id': 'req-1' };
  const key = (name: string) => ({ ...ID, 'X-API-Key': keys[name] ?? '' });
  const etagOf = async (path: string, method = 'GET', body?: string): Promise<string> => {
    const answer = await rawRequest(h.url + path, { method, headers: { ...key('live'), 'Content-Type': 'application/json' }, body });
    return String(answer.headers.etag);
  };
  const batchBody = JSON.stringify({ dataIds: ['doc-1', 'doc-2', 'nothing-here'] });

  const cases = (): Case[] => [
    ['item 200', 'GET', '/public/data/doc-1', key('live')],
    ['item 200, generated request id', 'GET', '/public/data/doc-1', { 'X-API-Key': keys.live ?? '' }],
    ['item 200, insane request id', 'GET', '/public/data/doc-1', { 'X-API-Key': keys.live ?? '', 'X-Request-Id': 'bad id with spaces' }],
    ['item 200, test key', 'GET', '/public/data/doc-2', key('test')],
    ['item 401 no key', 'GET', '/public/data/doc-1', ID],
    ['item 401 malformed key', 'GET', '/public/data/doc-1', { ...ID, 'X-API-Key': 'nope' }],
    ['item 401 unknown key', 'GET', '/public/data/doc-1', { ...ID, 'X-API-Key': 'pk_live_0000000000000000000000000000000000000000' }],
    ['item 401 deleted key', 'GET', '/public/data/doc-1', key('deleted')],
    ['item 401 key in query', 'GET', `/public/data/doc-1?apiKey=${keys.live ?? ''}`, ID],
    ['item 200 allowed origin', 'GET', '/public/data/doc-1', { ...key('domains'), Origin: 'https://app.example.com' }],
    ['item 200 allowed referer', 'GET', '/public/data/doc-1', { ...key('domains'), Referer: 'https://app.example.com/page' }],
    ['item 403 other origin', 'GET', '/public/data/doc-1', { ...key('domains'), Origin: 'https://evil.example.com' }],
    ['item 403 no origin on a domain key', 'GET', '/public/data/doc-1', key('domains')],
    ['item 200 any origin, open key', 'GET', '/public/data/doc-1', { ...key('live'), Origin: 'https://anywhere.example.org' }],
    ['item 400 bad id', 'GET', '/public/data/bad%20id!', key('live')],
    ['item 400 long id', 'GET', `/public/data/${'x'.repeat(300)}`, key('live')],
    ['item 404 missing', 'GET', '/public/data/nothing-here', key('live')],
    ['item 503 backend failure', 'GET', '/public/data/boom-1', key('live')],
    ['item 200 gzip', 'GET', '/public/data/doc-3', { ...key('live'), 'Accept-Encoding': 'gzip' }],
    ['item 200 br', 'GET', '/public/data/doc-3', { ...key('live'), 'Accept-Encoding': 'gzip, deflate, br' }],
    ['item 200 identity preferred', 'GET', '/public/data/doc-3', { ...key('live'), 'Accept-Encoding': 'identity;q=1, gzip;q=0.5' }],
    ['item 200 small body not compressed', 'GET', '/public/data/doc-1', { ...key('live'), 'Accept-Encoding': 'gzip' }],
    ['item 304 If-Modified-Since', 'GET', '/public/data/doc-1', { ...key('live'), 'If-Modified-Since': 'Wed, 04 Mar 2026 05:06:07 GMT' }],
    ['item 200 older If-Modified-Since', 'GET', '/public/data/doc-1', { ...key('live'), 'If-Modified-Since': 'Wed, 04 Mar 2026 05:06:06 GMT' }],
    ['item 304 If-None-Match *', 'GET', '/public/data/doc-1', { ...key('live'), 'If-None-Match': '*' }],
    ['item 200 stale If-None-Match', 'GET', '/public/data/doc-1', { ...key('live'), 'If-None-Match': 'W/"stale"' }],
    ['item HEAD 200', 'HEAD', '/public/data/doc-1', key('live')],
    ['item HEAD 200 gzip', 'HEAD', '/public/data/doc-3', { ...key('live'), 'Accept-Encoding': 'gzip' }],
    ['item HEAD 401', 'HEAD', '/public/data/doc-1', ID],
    ['item HEAD 404', 'HEAD', '/public/data/nothing-here', key('live')],
    ['item minPosition reached', 'GET', '/public/data/doc-1?minPosition=1', key('live')],
    ['item minPosition malformed', 'GET', '/public/data/doc-1?minPosition=abc', key('live')],
    ['item minPosition ahead (503)', 'GET', '/public/data/doc-1?minPosition=999999', key('live')],
    ['item unknown query parameter', 'GET', '/public/data/doc-1?x=1&y=2', key('live')],
    ['item path with trailing slash', 'GET', '/public/data/doc-1/', key('live')],
    ['item path with double slash', 'GET', '/public//data/doc-1', key('live')],
    ['item path with encoded unreserved', 'GET', '/public/data/%64oc-1', key('live')],
    ['item path with encoded slash', 'GET', '/public/data/doc%2F1', key('live')],
    ['item path with dot segment', 'GET', '/public/x/../data/doc-1', key('live')],
    ['item path malformed escape', 'GET', '/public/data/doc-%zz', key('live')],
    ['item path upper case', 'GET', '/PUBLIC/data/doc-1', key('live')],
    ['item POST 405', 'POST', '/public/data/doc-1', key('live'), '{}'],
    ['item PUT 405', 'PUT', '/public/data/doc-1', key('live'), '{}'],
    ['item DELETE 405', 'DELETE', '/public/data/doc-1', key('live')],
    ['item OPTIONS preflight with origin', 'OPTIONS', '/public/data/doc-1', { ...ID, Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' }],
    ['item OPTIONS without origin', 'OPTIONS', '/public/data/doc-1', ID],
    ['batch OPTIONS preflight', 'OPTIONS', '/public/batch', { ...ID, Origin: 'https://app.example.com' }],
    ['batch 200', 'POST', '/public/batch', { ...key('live'), 'Content-Type': 'application/json' }, batchBody],
    ['batch 200 gzip', 'POST', '/public/batch', { ...key('live'), 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' }, JSON.stringify({ dataIds: ['doc-3', 'doc-4'] })],
    ['batch 200 fields', 'POST', '/public/batch', { ...key('live'), 'Content-Type': 'application/json' }, JSON.stringify({ dataIds: ['doc-1'], fields: ['title'] })],
    ['batch 200 minPosition', 'POST', '/public/batch?minPosition=1', { ...key('live'), 'Content-Type': 'application/json' }, batchBody],
    ['batch 400 bad json', 'POST', '/public/batch', { ...key('live'), 'Content-Type': 'application/json' }, '{"dataIds": ['],
    ['batch 400 empty', 'POST', '/public/batch', { ...key('live'), 'Content-Type': 'application/json' }, JSON.stringify({ dataIds: [] })],
    ['batch 400 bad id', 'POST', '/public/batch', { ...key('live'), 'Content-Type': 'application/json' }, JSON.stringify({ dataIds: ['bad id!'] })],
    ['batch 415 wrong type', 'POST', '/public/batch', { ...key('live'), 'Content-Type': 'text/plain' }, batchBody],
    ['batch 401', 'POST', '/public/batch', { ...ID, 'Content-Type': 'application/json' }, batchBody],
    ['batch 403', 'POST', '/public/batch', { ...key('domains'), 'Content-Type': 'application/json', Origin: 'https://evil.example.com' }, batchBody],
    ['batch GET 405', 'GET', '/public/batch', key('live')],
    ['page 200', 'GET', '/public/collections/docs/data', key('live')],
    ['page 200 sorted, limited', 'GET', '/public/collections/docs/data?sort=score&order=desc&limit=3&page=2', key('live')],
    ['page 200 gzip', 'GET', '/public/collections/docs/data', { ...key('live'), 'Accept-Encoding': 'gzip' }],
    ['page 200 past the end', 'GET', '/public/collections/docs/data?page=99', key('live')],
    ['page 400 bad sort', 'GET', '/public/collections/docs/data?sort=nope', key('live')],
    ['page 400 bad limit', 'GET', '/public/collections/docs/data?limit=0', key('live')],
    ['page 400 bad page on unknown slug', 'GET', '/public/collections/nope/data?page=-1', key('live')],
    ['page 404 unknown collection', 'GET', '/public/collections/nope/data', key('live')],
    ['page 404 bad slug', 'GET', '/public/collections/NOT%20A%20SLUG/data', key('live')],
    ['page 401', 'GET', '/public/collections/docs/data', ID],
    ['page HEAD', 'HEAD', '/public/collections/docs/data', key('live')],
    ['page minPosition ahead', 'GET', '/public/collections/docs/data?minPosition=999999', key('live')],
    ['limited 1', 'GET', '/public/data/doc-1', key('limited')],
    ['limited 2', 'GET', '/public/data/doc-1', key('limited')],
    ['limited 429', 'GET', '/public/data/doc-1', key('limited')],
    ['limited 429 batch', 'POST', '/public/batch', { ...key('limited'), 'Content-Type': 'application/json' }, batchBody],
    ['limited 429 page', 'GET', '/public/collections/docs/data', key('limited')],
    ['unknown public path', 'GET', '/public/nothing', key('live')],
    ['unknown path', 'GET', '/nothing', ID],
    ['healthz', 'GET', '/healthz', ID],
  ];

  it('answers every request of the matrix as recorded', async () => {
    const answers: Record<string, Recorded> = {};
    for (const [name, method, path, headers = {}, body] of cases()) {
      answers[`${method} ${name}`] = recorded(await rawRequest(h.url + path, { method, headers, body }));
    }
    expect(answers).toMatchSnapshot();
  });

  it('answers conditional requests with the current ETag 304, with the same headers as the 200', async () => {
    const answers: Record<string, Recorded> = {};
    for (const [path, method, body] of [
      ['/public/data/doc-1', 'GET', undefined],
      ['/public/collections/docs/data?sort=score', 'GET', undefined],
      ['/public/batch', 'POST', batchBody],
    ] as const) {
      const etag = await etagOf(path, method, body);
      const headers = { ...key('live'), 'Content-Type': 'application/json', 'If-None-Match': `W/"other", ${etag}` };
      answers[`${method} ${path}`] = recorded(await rawRequest(h.url + path, { method, headers, body }));
    }
    expect(answers).toMatchSnapshot();
  });

  it('counts every request in the http metrics by method, route and status, and logs one access line each', async () => {
    const metrics = await rawRequest(`${h.url}/metrics`, {});
    const lines = metrics.body
      .toString('utf8')
      .split('\n')
      .filter((line) => line.startsWith('http_requests_total') || line.startsWith('pubstream_rate_limit_refusals_total'))
      .sort();
    expect(lines).toMatchSnapshot();
    const access = logLines.map((line) => {
      const { time: _time, pid: _pid, hostname: _hostname, ms, requestId, err, ...rest } = line;
      return {
        ...rest,
        ms: typeof ms === 'number' ? 'number' : ms,
        requestId: typeof requestId === 'string' && GENERATED_ID.test(requestId) ? '<generated>' : requestId,
        ...(err === undefined ? {} : { err: (err as { message?: string }).message }),
      };
    });
    expect(access).toMatchSnapshot();
  });
});
