import type { Clock } from './clock.js';
import { NetworkError } from './errors.js';
import { errorFromResponse } from './errorFromResponse.js';

/** The subset of `fetch` the client uses. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** One HTTP request to the public API. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** Builds the absolute URL of an API path, keeping any path prefix of the base URL. */
export function buildUrl(baseUrl: string, path: string, query?: ApiRequest['query']): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/**
 * Sends one request (no retry) and returns the parsed JSON body of a 2xx response; throws the typed
 * error of any other status, {@link NetworkError} when no response came, or the signal's reason on abort.
 */
export async function sendApiRequest<T>(
  fetchFn: FetchLike,
  baseUrl: string,
  apiKey: string,
  request: ApiRequest,
  clock: Clock,
): Promise<T> {
  const headers: Record<string, string> = { 'X-API-Key': apiKey, Accept: 'application/json' };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetchFn(buildUrl(baseUrl, request.path, request.query), {
      method: request.method,
      headers,
      body: request.body === undefined ? null : JSON.stringify(request.body),
      signal: request.signal ?? null,
    });
  } catch (cause) {
    if (request.signal?.aborted) throw request.signal.reason;
    throw new NetworkError(`Request to ${request.path} failed: ${describe(cause)}`, { cause });
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    if (request.signal?.aborted) throw request.signal.reason;
    if (response.ok) throw new NetworkError(`Response of ${request.path} was not complete JSON`, { cause });
    body = undefined;
  }
  if (!response.ok) {
    throw errorFromResponse({ status: response.status, statusText: response.statusText, headers: response.headers, body }, clock.now());
  }
  return withPosition(body, response.headers) as T;
}

/**
 * Adds the response's `X-Position` (the log position the read reflects) to an object body as
 * `position`, unless the body has one of its own (the changes feed's entries carry theirs).
 */
function withPosition(body: unknown, headers: Headers): unknown {
  const header = headers.get('x-position');
  if (header === null || !/^[0-9]{1,15}$/.test(header) || typeof body !== 'object' || body === null || Array.isArray(body) || 'position' in body) return body;
  return { ...body, position: Number(header) };
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as { cause?: unknown }).cause;
    return inner instanceof Error ? `${cause.message} (${inner.message})` : cause.message;
  }
  return String(cause);
}
