import http from 'node:http';
import { createParser } from 'eventsource-parser';

export interface SseLoad {
  /** Frames (events) received by all subscribers so far. */
  frames(): number;
  /** Write-to-delivery latencies (ms) seen by the sampled subscribers. */
  latencies(): number[];
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

/** Records, for item updates, the time from the `ts` a writer put into the item's data to now. */
const latencyRecorder = (latencies: number[]) =>
  createParser({
    onEvent: (event) => {
      if (event.event !== 'update') return;
      const payload = JSON.parse(event.data) as { dataId?: string; data: { ts?: number } };
      if (payload.dataId !== undefined && typeof payload.data.ts === 'number') latencies.push(Date.now() - payload.data.ts);
    },
  });

/**
 * Opens `count` raw SSE connections. Every connection counts frames cheaply (blank-line
 * separators); one in `sampleEvery` parses its stream with eventsource-parser and records the
 * latency from the `ts` a writer put into the item's data to its arrival here.
 */
export const openSubscribers = async (url: string, count: number, sampleEvery: number): Promise<SseLoad> => {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  let frames = 0;
  let connected = 0;
  const latencies: number[] = [];
  const requests: http.ClientRequest[] = [];
  const openOne = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(url, { agent }, (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`subscribe answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        const parser = index % sampleEvery === 0 ? latencyRecorder(latencies) : null;
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
