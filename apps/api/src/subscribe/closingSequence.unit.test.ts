import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeAfterResponse, queueClosingFrames } from './closingSequence.js';
import { FrameQueue } from './frameQueue.js';
import { SLICE_BYTES } from './socketWriter.js';

const queueOf = (...frames: string[]): FrameQueue => {
  const queue = new FrameQueue();
  for (const frame of frames) queue.push(frame, Buffer.byteLength(frame), 'delta');
  return queue;
};
const drained = (queue: FrameQueue): string => queue.takeSlice(Number.MAX_SAFE_INTEGER);
const size = (frame: string) => Buffer.byteLength(frame);

describe('queueClosingFrames', () => {
  it('given frames queued in this turn, then they go, followed by the last message', () => {
    const queue = queueOf('a\n\n');
    queueClosingFrames(queue, false, () => 'bye\n\n', size);
    expect(drained(queue)).toBe('a\n\nbye\n\n');
  });

  it('given frames held back by back-pressure or a large remainder, then they are dropped; the last message still goes', () => {
    const held = queueOf('a\n\n');
    queueClosingFrames(held, true, () => 'bye\n\n', size);
    expect(drained(held)).toBe('bye\n\n');
    const large = queueOf('x'.repeat(SLICE_BYTES + 1));
    queueClosingFrames(large, false, () => 'bye\n\n', size);
    expect(drained(large)).toBe('bye\n\n');
  });

  it('given a frame sent in part, then nothing may follow it: the queue is dropped and no last message is built', () => {
    const queue = queueOf('x'.repeat(100));
    queue.takeSlice(64);
    let built = 0;
    queueClosingFrames(queue, false, () => (built++, 'bye\n\n'), size);
    expect(queue.length).toBe(0);
    expect(built).toBe(0);
  });

  it('given no reason (the client left), then no last message', () => {
    const queue = queueOf('a\n\n');
    queueClosingFrames(queue, false, null, size);
    expect(drained(queue)).toBe('a\n\n');
  });
});

const fakeSocket = () => {
  const calls: string[] = [];
  const socket = Object.assign(new EventEmitter(), {
    destroyed: false,
    end: () => void calls.push('end'),
    destroy: () => void calls.push('destroy'),
  });
  return { socket, asSocket: socket as unknown as Socket, calls };
};
const fakeResponse = (finished: boolean) => {
  const calls: string[] = [];
  const res = Object.assign(new EventEmitter(), { writableFinished: finished, destroyed: false, destroy: () => void calls.push('destroy') });
  return { res, asResponse: res as unknown as ServerResponse, calls };
};

describe('closeAfterResponse', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('given a response already out, then the socket is closed at once, and the grace timer stops when it closes', () => {
    const { socket, asSocket, calls } = fakeSocket();
    closeAfterResponse(fakeResponse(true).asResponse, asSocket, 5_000);
    expect(calls).toEqual(['end']);
    socket.emit('close');
    vi.advanceTimersByTime(10_000);
    expect(calls).toEqual(['end']);
  });

  it('given a client that does not take the rest, then the socket closes when the response finishes, or is destroyed after the grace period', () => {
    const { asSocket, calls } = fakeSocket();
    const { res, asResponse } = fakeResponse(false);
    closeAfterResponse(asResponse, asSocket, 5_000);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(4_999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['destroy']);
    res.emit('finish');
    expect(calls).toEqual(['destroy', 'end']);
  });

  it('given a response without a socket, then it is destroyed after the grace period unless it finished', () => {
    const unfinished = fakeResponse(false);
    const timer = closeAfterResponse(unfinished.asResponse, null, 1_000);
    expect(timer).not.toBeNull();
    vi.advanceTimersByTime(1_000);
    expect(unfinished.calls).toEqual(['destroy']);
    expect(closeAfterResponse(fakeResponse(true).asResponse, null, 1_000)).toBeNull();
  });
});
