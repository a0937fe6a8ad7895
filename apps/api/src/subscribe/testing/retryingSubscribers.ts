import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';

/** What one stream saw before it ended. */
export interface EndedStream {
  /** performance.now() when the server ended it. */
  readonly endedAt: number;
  /** The last `retry:` of the stream (what an EventSource waits before reconnecting). */
  readonly retryMs: number | undefined;
  /** The payload of its `reconnect` event, if one came. */
  readonly reconnect: { reason?: string; retryAfterMs?: number } | undefined;
}

export interface RetryingSubscribers {
  /** Streams that got their `connected` event. */
  connected(): number;
  readonly ended: EndedStream[];
  close(): void;
}

/**
 * Opens `count` raw SSE streams to `url` that behave as an EventSource does when the server ends a
 * stream: wait the last `retry:` the stream carried (`defaultRetryMs` if none), then reconnect, here
 * to `reconnectUrl` (standing for the node a load balancer sends them to next). Streams are parsed
 * with eventsource-parser. Opened in waves so the accept queue is not what is measured.
 */
export const openRetryingSubscribers = async (
  url: string,
  count: number,
  options: { reconnectUrl: string; defaultRetryMs: number },
): Promise<RetryingSubscribers> => {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  const timers: NodeJS.Timeout[] = [];
  const ended: EndedStream[] = [];
  let connected = 0;

  const openOne = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(url, { agent }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`subscribe answered ${response.statusCode}`));
          return;
        }
        let retryMs: number | undefined;
        let reconnect: EndedStream['reconnect'];
        const parser = createParser({
          onRetry: (ms) => (retryMs = ms),
          onEvent: (event) => {
            if (event.event === 'connected') {
              connected++;
              resolve();
            } else if (event.event === 'reconnect') {
              reconnect = JSON.parse(event.data) as EndedStream['reconnect'];
            }
          },
        });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => parser.feed(chunk));
        response.once('end', () => {
          ended.push({ endedAt: performance.now(), retryMs, reconnect });
          const timer = setTimeout(() => {
            http.get(options.reconnectUrl, { agent }, (again) => again.resume()).on('error', () => {});
          }, retryMs ?? options.defaultRetryMs);
          timers.push(timer);
        });
      });
      request.on('error', reject);
      requests.push(request);
    });

  for (let start = 0; start < count; start += 200) {
    await Promise.all(Array.from({ length: Math.min(200, count - start) }, openOne));
  }
  return {
    connected: () => connected,
    ended,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      for (const request of requests) request.destroy();
      agent.destroy();
    },
  };
};

/** An HTTP server that answers 204 and notes when each request arrived (performance.now()). */
export const startArrivalRecorder = async (): Promise<{ readonly url: string; readonly arrivals: number[]; close(): Promise<void> }> => {
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    arrivals.push(performance.now());
    res.writeHead(204, { Connection: 'close' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/subscribe`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** How many of `times` fall in each `bucketMs` from `from`; the share of the fullest bucket. */
export const busiestShare = (times: readonly number[], from: number, bucketMs: number): number => {
  const buckets = new Map<number, number>();
  for (const time of times) {
    const bucket = Math.floor((time - from) / bucketMs);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
  }
  return times.length === 0 ? 0 : Math.max(...buckets.values()) / times.length;
};
