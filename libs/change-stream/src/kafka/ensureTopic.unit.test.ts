import { describe, expect, it } from 'vitest';
import { isTopicExistsError } from './ensureTopic.js';

describe('isTopicExistsError', () => {
  it('recognises the answer to a topic created by someone else first, and nothing else', () => {
    expect(isTopicExistsError(new Error('Topic with this name already exists'))).toBe(true);
    expect(isTopicExistsError(new Error('Topic with this name ALREADY EXISTS'))).toBe(true);
    expect(isTopicExistsError(new Error('Invalid replication factor'))).toBe(false);
    expect(isTopicExistsError('already exists')).toBe(false);
  });
});
