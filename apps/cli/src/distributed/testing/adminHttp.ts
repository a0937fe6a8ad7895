/** A tiny admin API client for e2e tests: JSON in, JSON out, throws on a non-2xx answer. */
export const adminHttp =
  (baseUrl: string, token: string) =>
  async <T = any>(method: string, path: string, body?: unknown): Promise<T> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text === '' ? null : JSON.parse(text)) as T;
  };

export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
