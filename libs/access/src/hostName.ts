import { domainToASCII } from 'node:url';

/**
 * The canonical form of a host name for whitelist comparison: lower case, no port, no trailing
 * dot, IDNs in punycode (`bücher.example` → `xn--bcher-kva.example`). Null when the value is not
 * a usable host name. IPv6 literals keep their brackets (`[::1]`).
 */
export const normalizeHost = (raw: string): string | null => {
  let host = raw.trim().toLowerCase();
  if (host === '') return null;
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return null;
    const rest = host.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    return host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0) {
    if (!/^\d{1,5}$/.test(host.slice(colon + 1))) return null;
    host = host.slice(0, colon);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '' || /[\s/\\@?#]/.test(host)) return null;
  const ascii = domainToASCII(host);
  if (ascii === '' || ascii.split('.').some((label) => label === '')) return null;
  return ascii;
};
