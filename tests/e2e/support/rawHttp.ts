// Requests sent byte for byte as written: fetch and URL normalise paths (`/a/./b`, `%61`) before
// sending, which would hide exactly the spellings the admin-path tests are about.
import { request } from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The JSON body, or null when the body is empty or not JSON. */
  readonly json: unknown;
}

export interface RawRequest {
  readonly method?: string;
  /** The request target exactly as it goes on the wire. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** The client's source address (any 127.0.0.0/8 address works on Linux). */
  readonly localAddress?: string;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** Sends one request to `baseUrl` (http://host:port) and reads the whole answer, within 10 s. */
export const rawRequest = (baseUrl: string, options: RawRequest): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const req = request(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
        localAddress: options.localAddress,
        agent: false,
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: text === '' ? null : parseJson(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${options.method ?? 'GET'} ${options.path} within 10 s`)));
    req.on('error', reject);
    req.end(options.body);
  });
