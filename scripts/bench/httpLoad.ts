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
  request: LoadRequest,
  options: { connections: number; durationSeconds: number },
): Promise<LoadResult> => {
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [{ method: request.method ?? 'GET', path: request.path, headers: request.headers, body: request.body }],
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
