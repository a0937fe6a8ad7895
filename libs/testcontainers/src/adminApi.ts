import type { ApiKeyOptions, CollectionSeed } from './options.js';

/** A non-2xx answer of the admin API, with the status and the `{error, message}` body. */
export class AdminApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(method: string, path: string, status: number, body: unknown) {
    const message = typeof body === 'object' && body !== null && 'message' in body ? String(body.message) : JSON.stringify(body);
    super(`${method} ${path} answered ${status}: ${message}`);
    this.name = 'AdminApiError';
    this.status = status;
    this.body = body;
  }
}

export type AdminRequest = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

/** JSON requests to the admin API with the admin token; each bounded to 30 s. */
export const adminRequester =
  (adminUrl: string, adminToken: string): AdminRequest =>
  async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${adminUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? null : JSON.parse(text);
    if (!response.ok) throw new AdminApiError(method, path, response.status, parsed);
    return parsed as T;
  };

/** Creates a collection and imports its items in one NDJSON request; any refused line fails. */
export const seedCollection = async (adminUrl: string, adminToken: string, seed: CollectionSeed): Promise<void> => {
  const admin = adminRequester(adminUrl, adminToken);
  await admin('POST', '/admin/collections', { slug: seed.slug, name: seed.name ?? seed.slug, sortableFields: seed.sortableFields ?? [] });
  if (seed.items.length === 0) return;
  const path = `/admin/collections/${encodeURIComponent(seed.slug)}/items:import`;
  const response = await fetch(`${adminUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/x-ndjson' },
    body: seed.items.map((item) => JSON.stringify({ dataId: item.dataId, data: item.data })).join('\n'),
    signal: AbortSignal.timeout(60_000),
  });
  const summary = (await response.json()) as { failed?: number; errors?: unknown[] };
  if (!response.ok || (summary.failed ?? 0) > 0) throw new AdminApiError('POST', path, response.status, summary);
};

/** Creates an API key and returns the raw key (shown only in this answer). */
export const createApiKey = async (admin: AdminRequest, options: ApiKeyOptions): Promise<string> => {
  const created = await admin<{ key: string }>('POST', '/admin/keys', {
    name: options.name ?? 'testcontainers',
    type: options.type ?? 'test',
    allowedDomains: options.allowedDomains ?? [],
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
  });
  return created.key;
};
