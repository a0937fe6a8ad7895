import { normalizeHost } from './hostName.js';

/**
 * Where a request says it comes from (docs/public-api.md, "How the requesting domain is determined"): the Origin header, else the host of the
 * Referer. `none` means no browser context at all (a server-side fetch); `invalid` covers
 * `Origin: null` and values that do not parse.
 */
export type RequestingDomain =
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid' }
  | {
      readonly kind: 'host';
      /** Normalized host (see normalizeHost). */
      readonly host: string;
      /** The Origin header as sent, when the host came from it: the value CORS echoes back. */
      readonly origin: string | null;
    };

const hostOfUrl = (value: string): string | null => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.hostname === '') return null;
  return normalizeHost(url.hostname);
};

/** Determines the requesting domain from the Origin and Referer header values. */
export const requestingDomain = (headers: { origin?: string | undefined; referer?: string | undefined }): RequestingDomain => {
  const { origin, referer } = headers;
  if (origin !== undefined) {
    if (origin.trim() === '' || origin.trim() === 'null') return { kind: 'invalid' };
    const host = hostOfUrl(origin.trim());
    return host === null ? { kind: 'invalid' } : { kind: 'host', host, origin: origin.trim() };
  }
  if (referer !== undefined && referer.trim() !== '') {
    const host = hostOfUrl(referer.trim());
    return host === null ? { kind: 'invalid' } : { kind: 'host', host, origin: null };
  }
  return { kind: 'none' };
};
