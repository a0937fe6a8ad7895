import { describe, expect, it } from 'vitest';
import { createByteFrameCounter } from './rawSubscriber.js';

describe('createByteFrameCounter', () => {
  it('counts the frames of chunked reads, a separator split across reads included, and not the chunk framing', () => {
    const count = createByteFrameCounter();
    expect(count(Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n'))).toBe(0);
    expect(count(Buffer.from('2a\r\nevent: connected\ndata: {}\n\nevent: update\ndata: 1\n\n\r\n'))).toBe(2);
    expect(count(Buffer.from('1f\r\nevent: update\ndata: 2\n'))).toBe(0);
    expect(count(Buffer.from('\n\r\n'))).toBe(1);
    expect(count(Buffer.from('9\r\n: ping\n\n\r\n'))).toBe(1);
  });

  it('does not count a read ending in a separator again when the next starts with a newline', () => {
    const count = createByteFrameCounter();
    expect(count(Buffer.from('data: 1\n\n'))).toBe(1);
    expect(count(Buffer.from('\ndata: 2\n\n'))).toBe(1);
  });
});
