import http from 'node:http';
import { createParser } from 'eventsource-parser';

export interface ReceivedEvent {
  readonly event: string;
  // Test code inspects payloads freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly data: any;
}

export interface SseTestClient {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** Every event so far, in order. */
  readonly events: ReceivedEvent[];
  /** Every comment line so far (heartbeats). */
  readonly comments: string[];
  /** Every `retry:` value so far, and how many events had arrived when each came. */
  readonly retries: { readonly ms: number; readonly afterEvents: number }[];
  /** The raw body of a response that is not an event stream (error JSON). */
  body(): Promise<string>;
  /** The first event (from the start) matching, waiting for it if need be. */
  waitFor(predicate: (event: ReceivedEvent) => boolean, what?: string): Promise<ReceivedEvent>;
  /** Resolves when the server has ended the response (or the socket closed). */
  readonly ended: Promise<void>;
  isEnded(): boolean;
  /** Stops reading from the socket (a client that does not keep up). */
  pause(): void;
  resume(): void;
  close(): void;
}

/**
 * Opens a GET over real HTTP and parses an event stream with eventsource-parser (the parser the
 * `eventsource` package is built on), never by hand. Safety timeouts only turn a hang into a
 * readable failure; no test asserts on time.
 */
export const openSse = (url: string, headers: Record<string, string> = {}, timeoutMs = 15_000): Promise<SseTestClient> =>
  new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
      const events: ReceivedEvent[] = [];
      const comments: string[] = [];
      const retries: { ms: number; afterEvents: number }[] = [];
      const waiters = new Set<() => void>();
      let ended = false;
      let raw = '';
      const isStream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      const parser = createParser({
        onEvent: (message) => {
          events.push({ event: message.event ?? 'message', data: JSON.parse(message.data) });
          for (const wake of [...waiters]) wake();
        },
        onRetry: (ms) => {
          retries.push({ ms, afterEvents: events.length });
        },
        onComment: (comment) => {
          comments.push(comment);
          for (const wake of [...waiters]) wake();
        },
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (isStream) parser.feed(chunk);
        else raw += chunk;
      });
      const endedPromise = new Promise<void>((done) => {
        const finish = (): void => {
          if (ended) return;
          ended = true;
          done();
          for (const wake of [...waiters]) wake();
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      const client: SseTestClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments,
        retries,
        body: () => endedPromise.then(() => raw),
        waitFor(predicate, what = 'event') {
          return new Promise((found, fail) => {
            const check = (): boolean => {
              const hit = events.find(predicate);
              if (hit) {
                cleanup();
                found(hit);
                return true;
              }
              if (ended) {
                cleanup();
                fail(new Error(`stream ended without ${what}; got ${JSON.stringify(events.map((e) => e.event))}`));
                return true;
              }
              return false;
            };
            const timer = setTimeout(() => {
              cleanup();
              fail(new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(events.slice(-5))}`));
            }, timeoutMs);
            const cleanup = (): void => {
              clearTimeout(timer);
              waiters.delete(wake);
            };
            const wake = (): void => void check();
            waiters.add(wake);
            check();
          });
        },
        ended: endedPromise,
        isEnded: () => ended,
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => {
          request.destroy();
          res.destroy();
        },
      };
      resolve(client);
    });
    request.on('error', reject);
  });
