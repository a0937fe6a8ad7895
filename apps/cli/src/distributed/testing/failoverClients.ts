import http from 'node:http';
import { createParser } from 'eventsource-parser';

/** One request of a failover client: which node answered what, and when (performance.now()). */
export interface Attempt {
  readonly at: number;
  readonly node: number;
  readonly kind: 'stream' | 'poll';
  /** null: no answer (connection refused or reset). */
  readonly status: number | null;
  readonly error: string | null;
  /** The start of the body of a refusal (not 200), to tell why. */
  body?: string;
}

/** Records the first 200 characters of a refusal's body on its attempt, then calls `ended`. */
const keepRefusalBody = (response: http.IncomingMessage, attempt: Attempt, ended: () => void): void => {
  attempt.body = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    if (attempt.body!.length < 200) attempt.body += chunk.slice(0, 200 - attempt.body!.length);
  });
  response.once('end', ended);
};

/**
 * Clients of a service with several nodes, as browsers behind a load balancer behave: they share
 * one keep-alive connection pool (`agent`), and a request that meets a connection error or a 503
 * is sent to the next node (what the balancer does when a node is gone or unready).
 */
export interface FailoverClients {
  readonly attempts: Attempt[];
  /** Streams whose `connected` event arrived and that are open now, on `node`. */
  openOn(node: number): number;
  close(): void;
}

interface StreamState {
  node: number;
  retryMs: number | undefined;
  request: http.ClientRequest | null;
}

/**
 * `count` EventSource-like streams on `path` (query included), all starting on node 0: when the
 * server ends a stream they wait its last `retry:` (or `defaultRetryMs`) and reconnect to the same
 * node, as EventSource does; a connection error or a 503 sends them to the next node at once.
 * Resolves once every stream has received `connected`.
 */
export const openFailoverStreams = async (options: {
  readonly nodes: readonly string[];
  readonly path: string;
  readonly count: number;
  readonly agent: http.Agent;
  readonly defaultRetryMs: number;
}): Promise<FailoverClients> => {
  const attempts: Attempt[] = [];
  const open = options.nodes.map(() => 0);
  const timers = new Set<NodeJS.Timeout>();
  const streams: StreamState[] = [];
  let closed = false;
  const later = (ms: number, run: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) run();
    }, ms);
    timers.add(timer);
  };

  const connect = (stream: StreamState, onConnected: () => void): void => {
    const node = stream.node;
    const failOver = (): void => {
      stream.node = (node + 1) % options.nodes.length;
      later(20, () => connect(stream, onConnected));
    };
    const request = http.get(`${options.nodes[node]}${options.path}`, { agent: options.agent }, (response) => {
      const attempt: Attempt = { at: performance.now(), node, kind: 'stream', status: response.statusCode ?? null, error: null };
      attempts.push(attempt);
      if (response.statusCode !== 200) {
        keepRefusalBody(response, attempt, () => undefined);
        if (response.statusCode === 503) failOver();
        return;
      }
      let connected = false;
      const parser = createParser({
        onRetry: (ms) => (stream.retryMs = ms),
        onEvent: (event) => {
          if (event.event !== 'connected' || connected) return;
          connected = true;
          open[node] = (open[node] ?? 0) + 1;
          onConnected();
        },
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => parser.feed(chunk));
      response.once('close', () => {
        if (connected) open[node] = (open[node] ?? 1) - 1;
        later(stream.retryMs ?? options.defaultRetryMs, () => connect(stream, onConnected));
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (closed) return;
      attempts.push({ at: performance.now(), node, kind: 'stream', status: null, error: error.code ?? error.message });
      failOver();
    });
    stream.request = request;
  };

  await Promise.all(
    Array.from({ length: options.count }, () => {
      const stream: StreamState = { node: 0, retryMs: undefined, request: null };
      streams.push(stream);
      return new Promise<void>((resolve) => connect(stream, resolve));
    }),
  );
  return {
    attempts,
    openOn: (node) => open[node] ?? 0,
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      for (const stream of streams) stream.request?.destroy();
    },
  };
};

/**
 * A poller that sends a GET every `everyMs` over the shared keep-alive pool, to node 0 until a
 * connection error or a 503 sends it to the next node.
 */
export const startFailoverPoller = (options: {
  readonly nodes: readonly string[];
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly agent: http.Agent;
  readonly everyMs: number;
}): FailoverClients => {
  const attempts: Attempt[] = [];
  let node = 0;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const poll = (): void => {
    const current = node;
    const next = (failed: boolean): void => {
      if (failed) node = (current + 1) % options.nodes.length;
      if (!closed) timer = setTimeout(poll, failed ? 0 : options.everyMs);
    };
    const request = http.get(`${options.nodes[current]}${options.path}`, { agent: options.agent, headers: options.headers }, (response) => {
      const attempt: Attempt = { at: performance.now(), node: current, kind: 'poll', status: response.statusCode ?? null, error: null };
      attempts.push(attempt);
      if (response.statusCode === 200) {
        response.resume();
        response.once('end', () => next(false));
      } else keepRefusalBody(response, attempt, () => next(response.statusCode === 503));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      attempts.push({ at: performance.now(), node: current, kind: 'poll', status: null, error: error.code ?? error.message });
      next(true);
    });
  };
  poll();
  return {
    attempts,
    openOn: () => 0,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
};
