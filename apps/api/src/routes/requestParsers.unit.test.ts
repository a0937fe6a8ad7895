import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseBatchRequest, pickFields } from './batchRequest.js';
import { parseCollectionQuery } from './collectionQuery.js';

const SORTS = ['createdAt', 'updatedAt', 'dataId', 'price'];

describe('parseCollectionQuery', () => {
  it('defaults: page 1, limit 20, createdAt, desc', () => {
    expect(parseCollectionQuery({}, SORTS)).toEqual({ page: 1, limit: 20, sort: 'createdAt', order: 'desc' });
  });
  it('accepts every integer page ≥ 1 and limit 1..100, and refuses the rest', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 100_000 }), fc.integer({ min: -5, max: 200 }), (page, limit) => {
        const parse = () => parseCollectionQuery({ page: String(page), limit: String(limit) }, SORTS);
        if (page >= 1 && limit >= 1 && limit <= 100) expect(parse()).toMatchObject({ page, limit });
        else expect(parse).toThrow(/^Invalid (page|limit): /);
      }),
    );
  });
  it('refuses non-integers, repeated parameters, unknown orders and sorts, naming the allowed values', () => {
    expect(() => parseCollectionQuery({ page: '2.0' }, SORTS)).toThrow('Invalid page: must be an integer of at least 1');
    expect(() => parseCollectionQuery({ limit: '1e2' }, SORTS)).toThrow('Invalid limit: must be an integer from 1 to 100');
    expect(() => parseCollectionQuery({ page: ['1', '2'] }, SORTS)).toThrow(/^Invalid page: give it once/);
    expect(() => parseCollectionQuery({ order: 'DESC' }, SORTS)).toThrow('Invalid order: must be one of asc, desc');
    expect(() => parseCollectionQuery({ sort: 'secret' }, SORTS)).toThrow('Invalid sort: must be one of createdAt, updatedAt, dataId, price');
    expect(parseCollectionQuery({ sort: 'price', order: 'asc' }, SORTS)).toMatchObject({ sort: 'price', order: 'asc' });
  });
});

describe('parseBatchRequest', () => {
  it('drops duplicates and keeps the first-seen order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 100 }), (ids) => {
        const { dataIds } = parseBatchRequest({ dataIds: ids });
        expect(dataIds).toEqual(ids.filter((id, index) => ids.indexOf(id) === index));
      }),
    );
  });
  it('1 to 100 ids; more is refused', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `id${i}`);
    expect(parseBatchRequest({ dataIds: ids(100) }).dataIds).toHaveLength(100);
    expect(() => parseBatchRequest({ dataIds: ids(101) })).toThrow('Too many dataIds: at most 100 per request (got 101)');
    expect(() => parseBatchRequest({ dataIds: [] })).toThrow('dataIds must be an array of 1 to 100 data identifiers');
    expect(() => parseBatchRequest({ dataIds: ['_bad'] })).toThrow('Invalid dataId format');
  });
  it('fields keeps only the named top-level keys', () => {
    const { fields } = parseBatchRequest({ dataIds: ['a'], fields: ['title', 'title', 'price'] });
    expect(fields).toEqual(['title', 'price']);
    expect(pickFields({ title: 't', price: 1, nested: { title: 'x' } }, fields)).toEqual({ title: 't', price: 1 });
    expect(pickFields({ title: 't' }, null)).toEqual({ title: 't' });
  });
  it('picks own keys only, and a __proto__ field becomes an own key, never a prototype', () => {
    const data = JSON.parse('{"__proto__":{"polluted":true},"constructor":"c"}') as Record<string, unknown>;
    const picked = pickFields(data, ['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
    expect(Object.keys(picked)).toEqual(['__proto__', 'constructor']);
    expect((picked as { polluted?: unknown }).polluted).toBeUndefined();
    expect(() => parseBatchRequest({ dataIds: ['a'], fields: [1] })).toThrow('fields must be an array of field names (strings)');
  });
});
