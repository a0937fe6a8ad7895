import http from 'node:http';
import type net from 'node:net';
import { createParser } from 'eventsource-parser';
import { openRawCounter } from './rawSubscriber.js';

export interface SseLoad {
  /** Frames (events) received by all subscribers so far. */
  frames(): number;
  /** Write-to-delivery latencies (ms) seen by the sampled subscribers. */
  latencies(): number[];
  /** Subscribers that parse their stream (one in `sampleEvery`). */
  sampled(): number;
  /** Distinct `seq` values above 0 (the writes; 0 is the setup) of item updates the sampled subscribers received, summed over them. */
  sampledSeqs(): number;
  /** Subscribers that received `connected`. */
  connected(): number;
  close(): void;
}

/**
 * Counts SSE frames (blank-line separators) in a stream of chunks, including a separator split
 * across two chunks: returns how many frames each chunk ends.
 */
export const createFrameCounter = (): ((chunk: string) => number) => {
  let previousEndedWithNewline = false;
  return (chunk) => {
    let frames = previousEndedWithNewline && chunk.startsWith('\n') ? 1 : 0;
    for (let at = chunk.indexOf('\n\n'); at !== -1; at = chunk.indexOf('\n\n', at + 2)) frames++;
    previousEndedWithNewline = chunk.endsWith('\n') && !chunk.endsWith('\n\n');
    return frames;
  };
};

/**
 * Records, for item updates, the time from the `ts` a writer put into the item's data to now, and
 * the distinct `seq` values received (a write lost on the way is a seq missing here).
 */
const latencyRecorder = (latencies: number[], seqs: Set<number>) =>
  createParser({
    onEvent: (event) => {
      if (event.event !== 'update') return;
      const payload = JSON.parse(event.data) as { dataId?: string; data: { ts?: number; seq?: number } };
      if (payload.dataId === undefined) return;
      if (typeof payload.data.ts === 'number') latencies.push(Date.now() - payload.data.ts);
      if (typeof payload.data.seq === 'number' && payload.data.seq > 0) seqs.add(payload.data.seq);
    },
  });

/**
 * Opens `count` raw SSE connections. Every connection counts frames cheaply (blank-line
 * separators); one in `sampleEvery` parses its stream with eventsource-parser and records the
 * latency from the `ts` a writer put into the item's data to its arrival here. With `bareSockets`
 * the counting ones are bare TCP sockets (rawSubscriber.ts), much cheaper for the load generator.
 */
export const openSubscribers = async (url: string, count: number, sampleEvery: number, options: { bareSockets?: boolean } = {}): Promise<SseLoad> => {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  let frames = 0;
  let connected = 0;
  const latencies: number[] = [];
  const seqSets: Set<number>[] = [];
  const requests: (http.ClientRequest | net.Socket)[] = [];
  const countRaw = (counted: number): void => void (frames += counted);
  const openOne = (index: number) =>
    options.bareSockets && index % sampleEvery !== 0
      ? openRawCounter(new URL(url), countRaw).then((socket) => {
          connected++;
          requests.push(socket);
        })
      : openParsed(index);
  const openParsed = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(url, { agent }, (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`subscribe answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        const seqs = new Set<number>();
        if (index % sampleEvery === 0) seqSets.push(seqs);
        const parser = index % sampleEvery === 0 ? latencyRecorder(latencies, seqs) : null;
        const countFrames = createFrameCounter();
        response.once('data', () => {
          connected++;
          resolve();
        });
        response.on('data', (chunk: string) => {
          frames += countFrames(chunk);
          parser?.feed(chunk);
        });
      });
      request.on('error', reject);
      requests.push(request);
    });
  // Connect in waves so the server's accept queue is not the thing being measured.
  for (let start = 0; start < count; start += 200) {
    await Promise.all(Array.from({ length: Math.min(200, count - start) }, (_, i) => openOne(start + i)));
  }
  return {
    frames: () => frames,
    latencies: () => latencies,
    sampled: () => seqSets.length,
    sampledSeqs: () => seqSets.reduce((sum, seqs) => sum + seqs.size, 0),
    connected: () => connected,
    close: () => {
      for (const request of requests) request.destroy();
      agent.destroy();
    },
  };
};

export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
