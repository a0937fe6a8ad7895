import { request } from 'node:http';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The bytes on the wire: node:http does not decompress. */
  readonly body: Buffer;
}

/** One request on its own connection (no keep-alive pool), answered as raw bytes. */
export const rawRequest = (url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
