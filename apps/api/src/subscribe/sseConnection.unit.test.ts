import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { FrameFlusher } from './frameFlusher.js';
import { createSseConnection } from './sseConnection.js';

/** A response that records what reaches the "socket"; `accept` false simulates back-pressure. */
const fakeResponse = () => {
  const emitter = new EventEmitter();
  const writes: string[] = [];
  const state = { accept: true, ended: false };
  const res = Object.assign(emitter, {
    writableLength: 0,
    destroyed: false,
    writableEnded: false,
    writableFinished: true,
    socket: null,
    chunkedEncoding: false,
    write(chunk: string | Buffer) {
      writes.push(chunk.toString());
      return state.accept;
    },
    flushHeaders() {},
    end() {
      state.ended = true;
      res.writableEnded = true;
    },
    destroy() {
      res.destroyed = true;
    },
  });
  return { res: res as unknown as ServerResponse, writes, state, emitter };
};

/** A flusher whose passes the test runs by hand. */
const manualFlusher = () => {
  let waiting: (() => void)[] = [];
  const flusher: FrameFlusher = { schedule: (flush) => void waiting.push(flush) };
  const pass = () => {
    const flushes = waiting;
    waiting = [];
    for (const flush of flushes) flush();
  };
  return { flusher, pass };
};

const options = (flusher: FrameFlusher) => ({ maxBufferedBytes: 1024, closeGraceMs: 1_000, flusher });

describe('SseConnection batching', () => {
  it('given several frames queued before a flush pass, when the pass runs, then they reach the socket as one write in order', () => {
    const { res, writes } = fakeResponse();
    const { flusher, pass } = manualFlusher();
    const connection = createSseConnection(res, options(flusher));
    connection.write('a\n\n');
    connection.write('b\n\n');
    connection.write('c\n\n');
    expect(writes).toEqual([]);
    expect(connection.bufferedBytes).toBe(9);
    pass();
    expect(writes).toEqual(['a\n\nb\n\nc\n\n']);
    connection.write('d\n\n');
    pass();
    expect(writes).toEqual(['a\n\nb\n\nc\n\n', 'd\n\n']);
  });

  it('given frames queued in this pass, when the stream ends, then they are written before the reconnect frame', () => {
    const { res, writes, state } = fakeResponse();
    const { flusher } = manualFlusher();
    const connection = createSseConnection(res, options(flusher));
    connection.write('a\n\n');
    connection.end('cycle');
    const sent = writes.join('');
    expect(sent.startsWith('a\n\nevent: reconnect\n')).toBe(true);
    expect(state.ended).toBe(true);
  });

  it('given back-pressure, when more frames come, then they wait for drain and go out in order; over the bound the stream is cut', () => {
    const { res, writes, state, emitter } = fakeResponse();
    const { flusher, pass } = manualFlusher();
    const connection = createSseConnection(res, options(flusher));
    state.accept = false;
    connection.write('a\n\n');
    pass();
    connection.write('b\n\n');
    pass();
    expect(writes).toEqual(['a\n\n']);
    state.accept = true;
    emitter.emit('drain');
    expect(writes).toEqual(['a\n\n', 'b\n\n']);

    connection.write('x'.repeat(600));
    connection.write('y'.repeat(600));
    expect(connection.ended).toBe(true);
    expect(connection.endReason).toBe('slow_consumer');
    expect(connection.peakBufferedBytes).toBeLessThanOrEqual(1024);
  });
});
