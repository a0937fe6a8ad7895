import autocannon from 'autocannon';

export interface LoadRequest {
  readonly method?: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly total: number;
}

/** Drives one server with autocannon for a bounded time (loopback only). */
export const runLoad = async (
  baseUrl: string,
  request: LoadRequest | readonly LoadRequest[],
  options: { connections: number; durationSeconds: number },
): Promise<LoadResult> => {
  // Several requests are sent in turn by every connection (e.g. one per API key).
  const list = Array.isArray(request) ? request : [request as LoadRequest];
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: list.map((r) => ({ method: r.method ?? 'GET', path: r.path, headers: r.headers, body: r.body })),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
};
