// Calls to the admin API of an all-in-one service over real HTTP, for the admin e2e tests.
import { expect } from 'vitest';
import type { AllInOne } from '../../../apps/cli/src/allInOne.js';

export interface AdminCallOptions {
  body?: unknown;
  raw?: string;
  type?: string;
  /** null: no Authorization header; default: the service's token. */
  token?: string | null;
  headers?: Record<string, string>;
}

/**
 * `call` sends one request (JSON body, bearer token); `head` is the log's head position;
 * `expectRefused` checks that a refused request appended nothing to the log.
 */
export const adminCalls = (service: () => AllInOne) => {
  const call = async (method: string, path: string, options: AdminCallOptions = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== null) headers.authorization = `Bearer ${options.token ?? service().adminToken}`;
    let body: string | undefined;
    if (options.raw !== undefined) {
      body = options.raw;
      headers['content-type'] = options.type ?? 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = options.type ?? 'application/json';
    }
    const response = await fetch(`${service().adminUrl}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
  };
  const head = () => service().eventStore.headPosition();
  const expectRefused = async (status: number, method: string, path: string, options: AdminCallOptions = {}) => {
    const before = await head();
    const response = await call(method, path, options);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: expect.any(String), message: expect.any(String) });
    expect(await head()).toBe(before);
    return response.body as { error: string; message: string };
  };
  return { call, head, expectRefused };
};
