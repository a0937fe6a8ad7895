import { describe, expect, it } from 'vitest';
import { FrameBytes, httpChunk } from './frameBytes.js';

describe('FrameBytes', () => {
  it('given the same frames for many sockets in a row, then their bytes and chunk are encoded once and shared', () => {
    const bytes = new FrameBytes();
    const frames = ['event: update\ndata: {"v":1}\n\n', ': ping\n\n'];
    const first = bytes.batch(frames);
    expect(first.toString()).toBe(frames.join(''));
    expect(bytes.batch([...frames])).toBe(first);
    const chunk = bytes.batchChunk(frames);
    expect(chunk.toString()).toBe(`${first.length.toString(16)}\r\n${frames.join('')}\r\n`);
    expect(bytes.batchChunk(frames)).toBe(chunk);
  });

  it('given other frames, then they get their own bytes, and the chunk follows them', () => {
    const bytes = new FrameBytes();
    const before = bytes.batchChunk(['a\n\n']);
    const after = bytes.batchChunk(['b\n\n']);
    expect(after).not.toBe(before);
    expect(after.toString()).toBe('3\r\nb\n\n\r\n');
    expect(bytes.batch(['a\n\n', 'b\n\n']).toString()).toBe('a\n\nb\n\n');
  });

  it('given the frames array emptied and refilled by its owner (a queue reused after each write), then the next batch has the new frames', () => {
    const bytes = new FrameBytes();
    const queue = ['a\n\n'];
    expect(bytes.batchChunk(queue).toString()).toBe('3\r\na\n\n\r\n');
    queue.length = 0;
    queue.push('b\n\n');
    expect(bytes.batchChunk(queue).toString()).toBe('3\r\nb\n\n\r\n');
    expect(bytes.batch(queue).toString()).toBe('b\n\n');
  });

  it('measures frames in UTF-8 bytes, not characters', () => {
    const bytes = new FrameBytes();
    expect(bytes.byteLength('é')).toBe(2);
    expect(bytes.byteLength('€€')).toBe(6);
    expect(bytes.byteLength('é')).toBe(2);
  });

  it('frames a chunk with its length in hex', () => {
    expect(httpChunk(Buffer.from('x'.repeat(26))).toString()).toBe(`1a\r\n${'x'.repeat(26)}\r\n`);
  });
});
