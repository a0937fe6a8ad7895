import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Compresses a body in libuv's thread pool (never on the event loop). Brotli at quality 5: close
 * to gzip's speed, smaller output; quality 11 (the default) costs tens of milliseconds per page.
 */
export const compress = (body: string, coding: ContentCoding): Promise<Buffer> =>
  coding === 'br'
    ? brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipped(body, { level: 6 });

/**
 * The coding to answer with for an Accept-Encoding header value, chosen by Koa's negotiator (the
 * client's q-values, ties in the client's order); null for identity. Memoized per header value:
 * clients send a handful of distinct values, and negotiating costs more than the lookup.
 */
export const createCodingChooser = (maxRemembered = 64): ((header: string | undefined, negotiate: () => string | false) => ContentCoding | null) => {
  const chosen = new Map<string, ContentCoding | null>();
  return (header, negotiate) => {
    if (!header) return null;
    const known = chosen.get(header);
    if (known !== undefined) return known;
    const answer = negotiate();
    const coding = answer === 'br' || answer === 'gzip' ? answer : null;
    if (chosen.size >= maxRemembered) chosen.clear();
    chosen.set(header, coding);
    return coding;
  };
};
