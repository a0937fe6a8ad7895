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
  /** The `id` field of each event in `events` (same index), undefined when it had none. */
  readonly ids: (string | undefined)[];
  /** The last id received (sticky, as an EventSource keeps it for Last-Event-ID); undefined before the first. */
  lastEventId(): string | undefined;
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

/** What one stream received so far, and the waiters to wake when more comes. */
interface StreamLog {
  readonly events: ReceivedEvent[];
  readonly ids: (string | undefined)[];
  readonly comments: string[];
  readonly retries: { ms: number; afterEvents: number }[];
  readonly waiters: Set<() => void>;
  /** Told of every event as it arrives, with its id. */
  readonly onEvent: ((event: ReceivedEvent, id: string | undefined) => void) | undefined;
  ended: boolean;
  raw: string;
}

const wakeAll = (log: StreamLog): void => {
  for (const wake of [...log.waiters]) wake();
};

/** Feeds the response to eventsource-parser (or keeps its raw body when it is not a stream); resolves when it ends. */
const recordResponse = (res: http.IncomingMessage, log: StreamLog): Promise<void> => {
  const isStream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
  const parser = createParser({
    onEvent: (message) => {
      const event = { event: message.event ?? 'message', data: JSON.parse(message.data) };
      log.events.push(event);
      log.ids.push(message.id);
      log.onEvent?.(event, message.id);
      wakeAll(log);
    },
    onRetry: (ms) => {
      log.retries.push({ ms, afterEvents: log.events.length });
    },
    onComment: (comment) => {
      log.comments.push(comment);
      wakeAll(log);
    },
  });
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    if (isStream) parser.feed(chunk);
    else log.raw += chunk;
  });
  return new Promise<void>((done) => {
    const finish = (): void => {
      if (log.ended) return;
      log.ended = true;
      done();
      wakeAll(log);
    };
    res.on('end', finish);
    res.on('close', finish);
    res.on('error', finish);
  });
};

/** The first event matching, waiting for it; fails when the stream ends without it, or after `timeoutMs`. */
const waitForEvent = (log: StreamLog, predicate: (event: ReceivedEvent) => boolean, what: string, timeoutMs: number): Promise<ReceivedEvent> =>
  new Promise((found, fail) => {
    const check = (): boolean => {
      const hit = log.events.find(predicate);
      if (hit) {
        cleanup();
        found(hit);
        return true;
      }
      if (log.ended) {
        cleanup();
        fail(new Error(`stream ended without ${what}; got ${JSON.stringify(log.events.map((e) => e.event))}`));
        return true;
      }
      return false;
    };
    const timer = setTimeout(() => {
      cleanup();
      fail(new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(log.events.slice(-5))}`));
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      log.waiters.delete(wake);
    };
    const wake = (): void => void check();
    log.waiters.add(wake);
    check();
  });

const clientOf = (request: http.ClientRequest, res: http.IncomingMessage, timeoutMs: number, onEvent: StreamLog['onEvent']): SseTestClient => {
  const log: StreamLog = { events: [], ids: [], comments: [], retries: [], waiters: new Set(), onEvent, ended: false, raw: '' };
  const endedPromise = recordResponse(res, log);
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    events: log.events,
    ids: log.ids,
    lastEventId: () => log.ids.findLast((id) => id !== undefined),
    comments: log.comments,
    retries: log.retries,
    body: () => endedPromise.then(() => log.raw),
    waitFor: (predicate, what = 'event') => waitForEvent(log, predicate, what, timeoutMs),
    ended: endedPromise,
    isEnded: () => log.ended,
    pause: () => res.pause(),
    resume: () => res.resume(),
    close: () => {
      request.destroy();
      res.destroy();
    },
  };
};

/**
 * Opens a GET over real HTTP and parses an event stream with eventsource-parser (the parser the
 * `eventsource` package is built on), never by hand. Safety timeouts only turn a hang into a
 * readable failure; no test asserts on time.
 */
export const openSse = (
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
  onEvent?: (event: ReceivedEvent, id: string | undefined) => void,
): Promise<SseTestClient> =>
  new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, (res) => resolve(clientOf(request, res, timeoutMs, onEvent)));
    request.on('error', reject);
  });
