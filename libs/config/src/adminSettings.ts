import { parseAllowedHosts } from './allowedHosts.js';
import type { ProcessRole } from './config.js';
import { ConfigError } from './configError.js';
import type { Env } from './envSchema.js';

/**
 * The admin port's settings that depend on each other or on the role: a token in production,
 * the Host allow-list, the guessing throttle's block times. Returns the allow-list.
 */
export const checkAdminSettings = (values: Env, role: ProcessRole): readonly string[] => {
  const servesAdmin = role === 'all-in-one' || role === 'admin';
  if (servesAdmin && values.NODE_ENV === 'production' && values.ADMIN_TOKEN === undefined) {
    throw new ConfigError('ADMIN_TOKEN', 'Invalid configuration: ADMIN_TOKEN is required when NODE_ENV=production (at least 16 characters)');
  }
  const allowedHosts = parseAllowedHosts(values.ADMIN_ALLOWED_HOSTS, values.ADMIN_HOST);
  if ('invalid' in allowedHosts) {
    throw new ConfigError(
      'ADMIN_ALLOWED_HOSTS',
      `Invalid configuration: ADMIN_ALLOWED_HOSTS must be a comma-separated list of host names or addresses, or * (got "${allowedHosts.invalid}")`,
    );
  }
  if (values.ADMIN_AUTH_MAX_BLOCK_MS < values.ADMIN_AUTH_BLOCK_MS) {
    throw new ConfigError('ADMIN_AUTH_MAX_BLOCK_MS', `Invalid configuration: ADMIN_AUTH_MAX_BLOCK_MS must be at least ADMIN_AUTH_BLOCK_MS (${values.ADMIN_AUTH_BLOCK_MS})`);
  }
  return allowedHosts.hosts;
};

/** The header timeout must end before either port's whole-request timeout can. */
export const checkHttpTimeouts = (values: Env): void => {
  const shortestRequest = Math.min(values.HTTP_REQUEST_TIMEOUT_MS, values.ADMIN_REQUEST_TIMEOUT_MS);
  if (values.HTTP_HEADERS_TIMEOUT_MS > shortestRequest) {
    throw new ConfigError(
      'HTTP_HEADERS_TIMEOUT_MS',
      `Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS or ADMIN_REQUEST_TIMEOUT_MS (got "${values.HTTP_HEADERS_TIMEOUT_MS}")`,
    );
  }
};

/** Where CLI tools reach the admin API: ADMIN_URL, else the admin listener (a wildcard bind is reached on loopback). */
export const adminUrlOf = (values: Pick<Env, 'ADMIN_URL' | 'ADMIN_HOST' | 'ADMIN_PORT'>): string => {
  const host = values.ADMIN_HOST === '0.0.0.0' || values.ADMIN_HOST === '::' ? '127.0.0.1' : values.ADMIN_HOST;
  return (values.ADMIN_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${values.ADMIN_PORT}`).replace(/\/+$/, '');
};
