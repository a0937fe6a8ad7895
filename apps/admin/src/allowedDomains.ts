import { domainToASCII } from 'node:url';
import { ValidationError } from '@pubstream/domain';
import { echoInput } from '@pubstream/http';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
export const MAX_ALLOWED_DOMAINS = 100;

/**
 * One whitelist entry in canonical form: a host name (`example.com`, `www.example.com`,
 * `localhost`, an IPv4 address) or a wildcard `*.example.com`; lower case, IDNs in punycode.
 * Schemes, ports, paths and `*` anywhere but a leading `*.` are refused with a message naming
 * the entry, so an operator sees the mistake when creating the key, not when requests fail.
 */
export const normalizeDomainEntry = (raw: string): string => {
  const entry = raw.trim();
  const refuse = (why: string) => new ValidationError(`Invalid allowed domain "${echoInput(entry)}": ${why}`);
  if (entry === '') throw refuse('empty entry');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) throw refuse('enter a host name without a scheme, e.g. example.com');
  if (/[/?#@\s]/.test(entry)) throw refuse('enter a host name only, without path, query or spaces');
  if (/:\d*$/.test(entry)) throw refuse('ports are not part of a domain entry');
  const wildcard = entry.startsWith('*.');
  const base = (wildcard ? entry.slice(2) : entry).toLowerCase().replace(/\.$/, '');
  if (base.includes('*')) throw refuse('a wildcard is only allowed as a leading "*." (e.g. *.example.com)');
  if (IPV4.test(base)) {
    if (wildcard) throw refuse('a wildcard cannot apply to an IP address');
    return base;
  }
  const ascii = domainToASCII(base);
  if (ascii === '' || ascii.length > 253) throw refuse('not a valid host name');
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) throw refuse('not a valid host name');
  if (wildcard && labels.length < 2) throw refuse('a wildcard needs a domain with at least two labels, e.g. *.example.com');
  return wildcard ? `*.${ascii}` : ascii;
};

/**
 * The whitelist from an array or a comma-separated string (as the dashboard form sends it):
 * each entry validated and normalized, duplicates dropped, order kept.
 */
export const parseAllowedDomains = (value: readonly string[] | string): string[] => {
  const entries = typeof value === 'string' ? value.split(',').filter((entry) => entry.trim() !== '') : value;
  const normalized = [...new Set(entries.map(normalizeDomainEntry))];
  if (normalized.length > MAX_ALLOWED_DOMAINS) throw new ValidationError(`At most ${MAX_ALLOWED_DOMAINS} allowed domains per key`);
  return normalized;
};
