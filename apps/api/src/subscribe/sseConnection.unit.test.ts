import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { FrameFlusher } from './frameFlusher.js';
import { createSseConnection, SLICE_BYTES } from './sseConnection.js';

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
  const flusher: FrameFlusher = { schedule: (flush) => void waiting.push(flush), afterNextPass: () => undefined };
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

describe('SseConnection snapshots, slices and cuts', () => {
  it('given a snapshot far bigger than the bound, then it is never cut and goes out a slice at a time, each after drain', () => {
    const { res, writes, state, emitter } = fakeResponse();
    const { flusher, pass } = manualFlusher();
    const connection = createSseConnection(res, options(flusher));
    const big = `event: update\ndata: ${'s'.repeat(100_000)}\n\n`;
    connection.snapshot(() => connection.write(big));
    state.accept = false;
    pass();
    expect(connection.ended).toBe(false);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.length).toBeLessThanOrEqual(SLICE_BYTES);
    // A small delta behind it waits its turn and is judged by the bound alone.
    connection.write('d\n\n');
    for (let drains = 0; drains < 20 && writes.join('') !== `${big}d\n\n`; drains++) emitter.emit('drain');
    expect(writes.join('')).toBe(`${big}d\n\n`);
    expect(connection.ended).toBe(false);
  });

  it('given a delta bigger than the bound, then it is sent in slices; a second one behind it cuts the stream with retryAfterMs and retry:', () => {
    const { res, writes, state } = fakeResponse();
    const { flusher, pass } = manualFlusher();
    const connection = createSseConnection(res, { ...options(flusher), retryAfterMs: () => 7_000 });
    state.accept = false;
    connection.write(`event: update\ndata: ${'p'.repeat(40_000)}\n\n`);
    pass();
    expect(connection.ended).toBe(false);
    connection.write(`event: update\ndata: ${'q'.repeat(40_000)}\n\n`);
    expect(connection.endReason).toBe('slow_consumer');
    // The first page was sent in part: nothing may follow it, the stream just closes.
    expect(writes.join('')).not.toContain('reconnect');
  });

  it('given whole frames held back, when cut, then the reconnect frame tells the client how long to wait', () => {
    const { res, writes, state } = fakeResponse();
    const { flusher, pass } = manualFlusher();
    const connection = createSseConnection(res, { ...options(flusher), retryAfterMs: (reason) => (reason === 'slow_consumer' ? 7_000 : undefined) });
    state.accept = false;
    connection.write('x'.repeat(600));
    // The socket keeps what it was given: the client is not reading.
    (res as unknown as { writableLength: number }).writableLength = 600;
    pass();
    connection.write('y'.repeat(600));
    expect(connection.endReason).toBe('slow_consumer');
    expect(writes.at(-1)).toBe('retry: 7000\nevent: reconnect\ndata: {"reason":"slow_consumer","retryAfterMs":7000}\n\n');
  });
});
