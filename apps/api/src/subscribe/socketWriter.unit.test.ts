import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FrameBytes } from './frameBytes.js';
import { FrameQueue } from './frameQueue.js';
import { SLICE_BYTES, SocketWriter } from './socketWriter.js';

/** A socket that records the buffers it is given; `accept` false is back-pressure. */
const fakeSocket = () => {
  const writes: Buffer[] = [];
  const state = { accept: true };
  const socket = Object.assign(new EventEmitter(), {
    write(chunk: Buffer) {
      writes.push(chunk);
      return state.accept;
    },
  });
  return { socket, writes, state };
};

/** A response; with `socket`, a chunked one whose body goes straight to that socket. */
const fakeResponse = (socket: EventEmitter | null = null) => {
  const writes: Buffer[] = [];
  const state = { accept: true };
  const res = Object.assign(new EventEmitter(), {
    socket,
    chunkedEncoding: socket !== null,
    writableLength: 0,
    destroyed: false,
    writableEnded: false,
    write(chunk: Buffer) {
      writes.push(chunk);
      return state.accept;
    },
  });
  return { res, response: res as unknown as ServerResponse, writes, state };
};

const queueOf = (...frames: string[]): FrameQueue => {
  const queue = new FrameQueue();
  for (const frame of frames) queue.push(frame, Buffer.byteLength(frame), 'delta');
  return queue;
};

describe('SocketWriter', () => {
  it('given a few frames, then they leave in one write through the response, and afterWrite runs once', () => {
    const { response, writes } = fakeResponse();
    const writer = new SocketWriter(response, new FrameBytes(), () => {});
    let after = 0;
    writer.writeQueue(queueOf('a\n\n', 'b\n\n'), () => after++);
    expect(writes.map(String)).toEqual(['a\n\nb\n\n']);
    expect(after).toBe(1);
  });

  it('given two connections of one hub sending the same frames on chunked responses, then both sockets get the very same chunk bytes', () => {
    const bytes = new FrameBytes();
    const one = fakeSocket();
    const two = fakeSocket();
    const first = fakeResponse(one.socket);
    const second = fakeResponse(two.socket);
    new SocketWriter(first.response, bytes, () => {}).writeQueue(queueOf('event: update\ndata: {}\n\n'), () => {});
    new SocketWriter(second.response, bytes, () => {}).writeQueue(queueOf('event: update\ndata: {}\n\n'), () => {});
    expect(one.writes[0]?.toString()).toBe('18\r\nevent: update\ndata: {}\n\n\r\n');
    expect(two.writes[0]).toBe(one.writes[0]);
    expect(first.writes).toEqual([]);
  });

  it('given a backlog bigger than a slice, then it goes a slice at a time until the socket refuses one, then waits for drain', () => {
    const { socket, writes, state } = fakeSocket();
    const { res, response } = fakeResponse(socket);
    let drained = 0;
    const writer = new SocketWriter(response, new FrameBytes(), () => drained++);
    const queue = queueOf('x'.repeat(SLICE_BYTES), 'y'.repeat(SLICE_BYTES), 'z'.repeat(SLICE_BYTES));
    state.accept = false;
    res.writableLength = 4_000;
    writer.writeQueue(queue, () => {});
    expect(writes).toHaveLength(1);
    expect(writer.waitingForDrain).toBe(true);
    expect(writer.unsentBytes).toBe(4_000);
    expect(queue.length).toBeGreaterThan(0);
    res.writableLength = 0;
    socket.emit('drain');
    expect(writer.waitingForDrain).toBe(false);
    expect(writer.unsentBytes).toBe(0);
    expect(drained).toBe(1);
  });

  it('given an ended response, then nothing is written', () => {
    const { res, response, writes } = fakeResponse();
    res.writableEnded = true;
    const queue = queueOf('a\n\n');
    new SocketWriter(response, new FrameBytes(), () => {}).writeQueue(queue, () => {});
    expect(writes).toEqual([]);
    expect(queue.length).toBe(1);
  });

  it('reads the socket again on refreshUnsent', () => {
    const { res, response } = fakeResponse();
    const writer = new SocketWriter(response, new FrameBytes(), () => {});
    res.writableLength = 123;
    expect(writer.unsentBytes).toBe(0);
    expect(writer.refreshUnsent()).toBe(123);
    expect(writer.unsentBytes).toBe(123);
  });
});
