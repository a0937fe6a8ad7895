import { describe, expect, it } from 'vitest';
import { mergeBatchResults, splitIntoBatches } from './batching.js';
import { createClient } from './createClient.js';

const ids = (n: number, prefix = 'item-') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('splitIntoBatches', () => {
  it('splits more than 100 ids into requests of at most 100, in order', () => {
    const chunks = splitIntoBatches(ids(250));
    expect(chunks.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunks.flat()).toEqual(ids(250));
  });

  it('asks for a repeated id once', () => {
    expect(splitIntoBatches(['a', 'b', 'a', 'c', 'b'])).toEqual([['a', 'b', 'c']]);
  });

  it('makes no request for no ids', () => {
    expect(splitIntoBatches([])).toEqual([]);
  });
});

describe('mergeBatchResults', () => {
  it('concatenates data and notFound in order and sums found', () => {
    const merged = mergeBatchResults([
      { data: [{ dataId: 'a', data: { n: 1 } }], found: 1, notFound: ['x'] },
      { data: [{ dataId: 'b', data: { n: 2 } }, { dataId: 'c', data: {} }], found: 2, notFound: ['y', 'z'] },
    ]);
    expect(merged).toEqual({
      data: [{ dataId: 'a', data: { n: 1 } }, { dataId: 'b', data: { n: 2 } }, { dataId: 'c', data: {} }],
      found: 3,
      notFound: ['x', 'y', 'z'],
    });
  });

  it('returns the empty result for no ids', () => {
    expect(mergeBatchResults([])).toEqual({ data: [], found: 0, notFound: [] });
  });
});

describe('fetchBatch', () => {
  it('sends 250 ids as three requests with the fields and merges the answers', async () => {
    const bodies: { dataIds: string[]; fields?: string[] }[] = [];
    const client = createClient({
      baseUrl: 'http://pubstream.invalid/',
      apiKey: 'pk_test_x',
      fetch: async (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { dataIds: string[]; fields?: string[] };
        bodies.push(body);
        const found = body.dataIds.filter((id) => !id.endsWith('7'));
        const answer = { data: found.map((dataId) => ({ dataId, data: { id: dataId } })), found: found.length, notFound: body.dataIds.filter((id) => id.endsWith('7')) };
        return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
      },
    });
    const result = await client.fetchBatch(ids(250), { fields: ['id'] });
    expect(bodies.map((b) => b.dataIds.length)).toEqual([100, 100, 50]);
    expect(bodies.every((b) => b.fields?.[0] === 'id')).toBe(true);
    expect(result.found + result.notFound.length).toBe(250);
    expect(result.data.map((d) => d.dataId)).toEqual(ids(250).filter((id) => !id.endsWith('7')));
    expect(result.notFound).toEqual(ids(250).filter((id) => id.endsWith('7')));
  });
});
