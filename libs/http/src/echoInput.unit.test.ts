import { describe, expect, it } from 'vitest';
import { clipMessage, echoInput, MAX_ECHO_CHARS, MAX_MESSAGE_CHARS } from './echoInput.js';

describe('echoInput', () => {
  it('keeps input up to the longest valid identifier whole', () => {
    const dataId = 'd'.repeat(MAX_ECHO_CHARS);
    expect(echoInput(dataId)).toBe(dataId);
    expect(echoInput('books')).toBe('books');
  });

  it('cuts longer input and marks the cut with an ellipsis', () => {
    expect(echoInput('a'.repeat(16_000))).toBe(`${'a'.repeat(MAX_ECHO_CHARS)}…`);
    expect(echoInput('abcdef', 3)).toBe('abc…');
  });

  it('never splits a surrogate pair', () => {
    expect(echoInput('ab😀cd', 3)).toBe('ab…');
  });

  it('bounds whole messages', () => {
    expect(clipMessage('m'.repeat(5_000))).toHaveLength(MAX_MESSAGE_CHARS + 1);
    expect(clipMessage('short')).toBe('short');
  });
});
