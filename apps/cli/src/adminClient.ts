import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

/** A failure answered by the admin API, with its `{error, message}` body. */
export class AdminApiError extends Error {
  readonly status: number;
  constructor(status: number, error: string, message: string) {
    super(`${status} ${error}: ${message}`);
    this.name = 'AdminApiError';
    this.status = status;
  }
}

/** What the CLI's tools need of the admin API. */
export interface AdminClient {
  /** One request; resolves with the parsed JSON answer, throws AdminApiError for a failure. */
  request(method: string, path: string, init?: { json?: unknown; body?: ReadableStream; type?: string }): Promise<unknown>;
  /** Streams an NDJSON file to the import route (never read whole into memory). */
  importFile(slug: string, file: string): Promise<unknown>;
}

/**
 * The CLI's tools (import, keys) talk to a running admin API, so they work the same against
 * the embedded and the distributed profile and get read-your-writes from the server.
 */
export const createAdminClient = (baseUrl: string, token: string): AdminClient => {
  const request = async (method: string, path: string, init: { json?: unknown; body?: ReadableStream; type?: string } = {}): Promise<unknown> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    let body: string | ReadableStream | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.body !== undefined) {
      headers['content-type'] = init.type ?? 'application/octet-stream';
      body = init.body;
    }
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, { method, headers, body, ...(init.body ? { duplex: 'half' } : {}) } as RequestInit);
    } catch (error) {
      throw new Error(`Cannot reach the admin API at ${baseUrl} (is "pubstream start" running? set ADMIN_URL)`, { cause: error });
    }
    const text = await response.text();
    const parsed: unknown = text === '' ? null : JSON.parse(text);
    if (!response.ok) {
      const failure = (parsed ?? {}) as { error?: string; message?: string };
      throw new AdminApiError(response.status, failure.error ?? 'Error', failure.message ?? response.statusText);
    }
    return parsed;
  };

  return {
    request,
    importFile: (slug: string, file: string) =>
      request('POST', `/admin/collections/${encodeURIComponent(slug)}/items:import`, {
        body: Readable.toWeb(createReadStream(file)) as ReadableStream,
        type: 'application/x-ndjson',
      }),
  };
};
