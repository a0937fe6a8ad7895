// What the client e2e tests share: the embedded all-in-one server on loopback ports, and calls to its
// admin API with its token.
import { startAllInOne, type AllInOne } from '../../../apps/cli/src/allInOne.js';

/**
 * The embedded profile on free loopback ports with its log in `dataDir`, logging nothing.
 * `env` adds to or overrides those settings (e.g. fixed ports for a restart, REDIS_URL).
 */
export const startClientServer = (dataDir: string, env: Record<string, string> = {}): Promise<AllInOne> =>
  startAllInOne({
    env: { PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
  });

/** Calls the admin API of `server` with its token; the parsed JSON answer, `{}` when empty; throws on a non-2xx status. */
export async function adminRequest<T = Record<string, unknown>>(server: AllInOne, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(server.adminUrl + path, {
    method,
    headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** A new test key (no domain list) named `name`; test keys always allow 127.0.0.1 origins. */
export const createTestKey = async (server: AllInOne, name: string): Promise<string> =>
  (await adminRequest<{ key: string }>(server, 'POST', '/admin/keys', { name, type: 'test', allowedDomains: [] })).key;
