import { hostName } from './hostName.js';

/** The loopback names, in hostName form: the default Host allow-list of the admin port. */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The Host header values the admin port answers (docs/security.md, DNS rebinding). Unset: the
 * loopback names plus ADMIN_HOST when it names one host or address. Set: exactly the listed
 * names (ports ignored), or `*` for any. Returns the names in `hostName` form, `['*']` for any,
 * or the first entry that is not a host name.
 */
export const parseAllowedHosts = (value: string | undefined, adminHost: string): { hosts: readonly string[] } | { invalid: string } => {
  if (value === undefined) {
    const bound = WILDCARD_BINDS.has(adminHost.trim()) ? null : hostName(adminHost);
    return { hosts: [...new Set([...LOOPBACK_HOST_NAMES, ...(bound === null ? [] : [bound])])] };
  }
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.includes('*')) return { hosts: ['*'] };
  const hosts: string[] = [];
  for (const entry of entries) {
    const name = hostName(entry);
    if (name === null) return { invalid: entry };
    hosts.push(name);
  }
  return hosts.length === 0 ? { invalid: value } : { hosts: [...new Set(hosts)] };
};
