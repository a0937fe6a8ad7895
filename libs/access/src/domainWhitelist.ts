import type { KeyType } from '@pubstream/domain';
import { normalizeHost } from './hostName.js';

/** Always allowed for test keys, on top of their whitelist (specification, Authentication 5). */
const TEST_KEY_EXTRA_PATTERNS: readonly string[] = ['localhost', '127.0.0.1', '*.local'];

/** A whitelist entry in canonical form: an exact host, or the base of a `*.` wildcard. */
interface CompiledPattern {
  readonly wildcard: boolean;
  readonly host: string;
}

const compilePattern = (pattern: string): CompiledPattern | null => {
  const trimmed = pattern.trim();
  const wildcard = trimmed.startsWith('*.');
  const host = normalizeHost(wildcard ? trimmed.slice(2) : trimmed);
  return host === null ? null : { wildcard, host };
};

const matchesCompiled = (pattern: CompiledPattern, host: string): boolean =>
  pattern.wildcard ? host.length > pattern.host.length + 1 && host.endsWith(`.${pattern.host}`) : host === pattern.host;

/**
 * Whether a normalized host matches one whitelist entry. `example.com` matches only itself;
 * `*.example.com` matches subdomains at any depth, never the apex and never `evilexample.com`.
 * Entries are normalized like hosts (case, port, trailing dot, IDN).
 */
export const matchesDomainPattern = (pattern: string, host: string): boolean => {
  const compiled = compilePattern(pattern);
  return compiled !== null && matchesCompiled(compiled, host);
};

// Key records are immutable and cached, so their whitelists are compiled once, not per request.
const compiledWhitelists = new WeakMap<readonly string[], readonly CompiledPattern[]>();
const compileWhitelist = (allowedDomains: readonly string[]): readonly CompiledPattern[] => {
  let compiled = compiledWhitelists.get(allowedDomains);
  if (!compiled) {
    compiled = allowedDomains.map(compilePattern).filter((p): p is CompiledPattern => p !== null);
    compiledWhitelists.set(allowedDomains, compiled);
  }
  return compiled;
};
const TEST_KEY_EXTRAS = compileWhitelist(TEST_KEY_EXTRA_PATTERNS);

/** Whether a key of the given type and whitelist may be used from the (normalized) host. */
export const isDomainAllowed = (host: string, allowedDomains: readonly string[], type: KeyType): boolean => {
  if (compileWhitelist(allowedDomains).some((pattern) => matchesCompiled(pattern, host))) return true;
  return type === 'test' && TEST_KEY_EXTRAS.some((pattern) => matchesCompiled(pattern, host));
};
