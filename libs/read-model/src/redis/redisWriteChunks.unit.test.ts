import { describe, expect, it } from 'vitest';
import type { ReadModelOp } from '../projectionStore.js';
import { hashTagOf, redisKeys } from './redisKeys.js';
import { planWriteChunks, type WriteChunk } from './redisWriteChunks.js';
import { collectionRecord, itemRecord } from '../testing/index.js';

const key = redisKeys('ns');
const put = (dataId: string, collection = 'c', version = 1, data: Record<string, unknown> = {}): ReadModelOp => ({ kind: 'item.put', item: itemRecord(dataId, collection, version, data) });
const FIELDS: Record<string, number> = { i: 14, t: 9, c: 10, s: 4, h: 5, r: 4 };

/** The entries of a chunk as [tag, ...fields], decoded the way the APPLY script reads them. */
const entriesOf = (chunk: WriteChunk): string[][] => {
  const out: string[][] = [];
  for (let a = 0; a < chunk.args.length; ) {
    const tag = chunk.args[a] as string;
    const n = FIELDS[tag];
    if (n === undefined) throw new Error(`unknown tag ${tag}`);
    out.push(chunk.args.slice(a, a + n + 1));
    a += n + 1;
  }
  return out;
};

/** Every key (or key prefix) an entry touches. */
const keysOf = ([tag, ...f]: string[]): string[] => {
  if (tag === 'i') return [f[0], f[1], f[4], f[9]] as string[];
  if (tag === 't') return [f[0], f[1], f[4]] as string[];
  if (tag === 'c' || tag === 'r') return [f[0]] as string[];
  return [f[0], f[1]] as string[];
};

describe('planWriteChunks', () => {
  it('on one node puts each item in one entry, in op order, in chunks of at most maxEntries', () => {
    const ops = Array.from({ length: 250 }, (_, i) => put(`d${i}`));
    const chunks = planWriteChunks(ops, key, { cluster: false });
    expect(chunks.map((c) => c.opOf.length)).toEqual([100, 100, 50]);
    expect(chunks.flatMap((c) => c.opOf)).toEqual(ops.map((_, i) => i));
    expect(chunks.flatMap(entriesOf).map((e) => [e[0], e[11]])).toEqual(ops.map((_, i) => ['i', `d${i}`]));
  });

  it('on a cluster every chunk stays inside one hash tag, and each record keeps the order of its ops', () => {
    const ops: ReadModelOp[] = [
      { kind: 'collection.put', collection: collectionRecord('c', 1, [{ name: 'n', type: 'number' }]) },
      put('a', 'c', 1),
      put('b', 'other', 1),
      { kind: 'item.delete', dataId: 'a', collectionId: 'c', version: 2, position: 2 },
      { kind: 'collection.delete', slug: 'c', version: 2, position: 2 },
      { kind: 'plan.put', plan: { plan: 'free', monthlyQuota: null, version: 1 } },
      put('a', 'c', 3),
    ];
    const chunks = planWriteChunks(ops, key, { cluster: true, maxEntries: 2 });
    for (const chunk of chunks) {
      const tags = new Set([chunk.routeKey, ...entriesOf(chunk).flatMap(keysOf)].map(hashTagOf));
      expect(tags.size).toBe(1);
    }
    // The collection slot sees its record and memberships in op order, across chunks.
    const collectionSide = chunks.filter((c) => hashTagOf(c.routeKey) === 'c:c').flatMap((c) => entriesOf(c).map((e, i) => [e[0], c.opOf[i]]));
    expect(collectionSide).toEqual([['r', 0], ['c', 1], ['c', 3], ['r', 4], ['c', 6]]);
    const itemA = chunks.filter((c) => hashTagOf(c.routeKey) === 'i:a').flatMap((c) => entriesOf(c).map((e) => [e[0], e[3], e[4]]));
    expect(itemA).toEqual([['t', '1', JSON.stringify((ops[1] as { item: unknown }).item)], ['t', '2', ''], ['t', '3', JSON.stringify((ops[6] as { item: unknown }).item)]]);
    // Every op is answered by at least one entry.
    expect(new Set(chunks.flatMap((c) => c.opOf))).toEqual(new Set(ops.map((_, i) => i)));
  });

  it('cuts chunks by argument bytes too, and never leaves an oversized entry out', () => {
    const big = 'x'.repeat(400);
    const ops = Array.from({ length: 10 }, (_, i) => put(`d${i}`, 'c', 1, { big }));
    const chunks = planWriteChunks(ops, key, { cluster: false, maxBytes: 1_000 });
    expect(chunks.map((c) => c.opOf.length)).toEqual(Array.from({ length: 10 }, () => 1));
    expect(planWriteChunks(ops, key, { cluster: false, maxBytes: 10 }).flatMap((c) => c.opOf)).toEqual(ops.map((_, i) => i));
  });
});

describe('hashTagOf', () => {
  it('follows the Redis Cluster rule: first {…} when not empty, else the whole key', () => {
    expect(hashTagOf('ns:{i:a}:v')).toBe('i:a');
    expect(hashTagOf('ns:{}x{y}')).toBe('ns:{}x{y}');
    expect(hashTagOf('ns:{a}{b}')).toBe('a');
    expect(hashTagOf('ns:{open')).toBe('ns:{open');
    expect(hashTagOf('plain')).toBe('plain');
  });
});
