import http from 'node:http';

/** One request's outcome, as a fault scenario records it. */
export interface ProbeResult {
  /** The HTTP status; null when no answer came (connection error, or no answer within the timeout). */
  readonly status: number | null;
  /** The connection error (`ECONNREFUSED`, `ECONNRESET`, …) or `timeout`, when there was no status. */
  readonly error: string | null;
  /** How long the answer (its headers, for a stream) took, in milliseconds. */
  readonly ms: number;
  /** performance.now() when the request was sent. */
  readonly sentAt: number;
  readonly headers: http.IncomingHttpHeaders;
  /** The body (empty for a stream, whose headers are enough). */
  readonly body: string;
}

export interface ProbeOptions {
  readonly headers?: Record<string, string>;
  /** Give up (error `timeout`) after this long: a hung server must not hang the test. */
  readonly timeoutMs: number;
  /** Default: no keep-alive (a fresh connection per request). */
  readonly agent?: http.Agent;
  readonly method?: string;
  /** A body to send; with `bodyDelayMs` the headers go first and the body that much later (a request in flight). */
  readonly body?: string;
  readonly bodyDelayMs?: number;
}

const FRESH_CONNECTIONS = new http.Agent({ keepAlive: false });

/**
 * GETs `url` and reports status, timing, headers and body. An answer of type text/event-stream
 * resolves at its headers and is then closed: for /subscribe the status is what counts.
 */
export const probe = (url: string, options: ProbeOptions): Promise<ProbeResult> =>
  new Promise((resolve) => {
    const sentAt = performance.now();
    let settled = false;
    const done = (result: Omit<ProbeResult, 'ms' | 'sentAt'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, ms: performance.now() - sentAt, sentAt });
    };
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent ?? FRESH_CONNECTIONS }, (response) => {
      const status = response.statusCode ?? null;
      if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        done({ status, error: null, headers: response.headers, body: '' });
        response.destroy();
        return;
      }
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => done({ status, error: null, headers: response.headers, body }));
      response.on('error', (error) => done({ status, error: error.message, headers: response.headers, body }));
    });
    const timer = setTimeout(() => {
      done({ status: null, error: 'timeout', headers: {}, body: '' });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => done({ status: null, error: error.code ?? error.message, headers: {}, body: '' }));
    if (options.body === undefined) request.end();
    else if (options.bodyDelayMs === undefined) request.end(options.body);
    else {
      request.flushHeaders();
      setTimeout(() => request.end(options.body), options.bodyDelayMs);
    }
  });

/** A 503 as the service must give it: JSON `{error, message}` with a Retry-After. */
export const isHonest503 = (result: ProbeResult): boolean => {
  if (result.status !== 503 || result.headers['retry-after'] === undefined) return false;
  try {
    const body = JSON.parse(result.body) as { error?: unknown; message?: unknown };
    return typeof body.error === 'string' && typeof body.message === 'string';
  } catch {
    return false;
  }
};
