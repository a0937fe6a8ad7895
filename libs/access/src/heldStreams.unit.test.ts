import { describe, expect, it } from 'vitest';
import { createHeldStreams } from './heldStreams.js';

describe('createHeldStreams', () => {
  it('given streams of several keys, then one chunk per key and per chunk size', () => {
    const held = createHeldStreams();
    for (const id of ['s1', 's2', 's3', 's4', 's5']) held.add('k1', id);
    held.add('k2', 's9');
    expect(held.chunks(2)).toEqual([
      { keyId: 'k1', streamIds: ['s1', 's2'] },
      { keyId: 'k1', streamIds: ['s3', 's4'] },
      { keyId: 'k1', streamIds: ['s5'] },
      { keyId: 'k2', streamIds: ['s9'] },
    ]);
    expect(held.chunks()).toEqual([
      { keyId: 'k1', streamIds: ['s1', 's2', 's3', 's4', 's5'] },
      { keyId: 'k2', streamIds: ['s9'] },
    ]);
  });

  it('given released streams, then they are no longer kept alive, and a key without streams is gone', () => {
    const held = createHeldStreams();
    held.add('k1', 's1');
    held.add('k1', 's1');
    held.add('k2', 's2');
    held.remove('k1', 's1');
    held.remove('k3', 'unknown');
    expect(held.chunks(500)).toEqual([{ keyId: 'k2', streamIds: ['s2'] }]);
  });
});
