import { describe, expect, it } from 'vitest';
import type { ChangeMessage } from '../changeStream.js';
import { decodeChangeMessages, encodeChangeMessage } from './changeMessageCodec.js';

const item: ChangeMessage = { kind: 'item', action: 'update', dataId: 'a', collectionId: 'news', version: 2, position: 10, data: { n: 1 } };
const plan: ChangeMessage = { kind: 'plan', action: 'update', version: 1, position: 11 };

describe('change message codec', () => {
  it('puts every record in partition 0, keys it by its entity and round-trips its value', () => {
    const record = encodeChangeMessage(item);
    expect(record.key).toBe('item:a');
    expect([record.partition, encodeChangeMessage(plan).partition]).toEqual([0, 0]);
    expect(decodeChangeMessages([Buffer.from(record.value)], () => {})).toEqual([item]);
  });

  it('given empty and broken values in a batch, then the rest is decoded in order and each broken one reported', () => {
    const invalid: unknown[] = [];
    const values = [Buffer.from(encodeChangeMessage(item).value), null, Buffer.from('{not json'), Buffer.from(encodeChangeMessage(plan).value)];
    expect(decodeChangeMessages(values, (error) => invalid.push(error))).toEqual([item, plan]);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toBeInstanceOf(SyntaxError);
  });
});
