import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from './apiKeys.js';
import { createKeyHashMemo } from './keyHashMemo.js';

describe('createKeyHashMemo', () => {
  it('gives the SHA-256 of every key, remembered or not', () => {
    const hashOf = createKeyHashMemo(2);
    const keys = [generateApiKey('live'), generateApiKey('test'), generateApiKey('live')];
    // Three keys through a memo of two: the first is evicted and hashed again on its second use.
    for (const key of [...keys, ...keys]) expect(hashOf(key)).toBe(hashApiKey(key));
  });
});
