import type { IncomingMessage } from 'node:http';
import { UnsupportedMediaTypeError } from '@pubstream/domain';
import type { Context } from 'koa';
import { parseContentEncoding } from './contentCoding.js';
import { decodedBody } from './decodedBody.js';
import { parseJsonText } from './parseJsonText.js';

/** Largest accepted JSON body, after decompression (docs/decisions.md): bigger is 413. */
const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** True when the request announces a body (a length above zero, or chunks). */
const hasBody = (req: IncomingMessage): boolean => {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

/**
 * The declared media type is JSON. Not `ctx.is()`: it answers null for a request without a body,
 * so `Content-Type: application/json` with no body at all would be refused as the wrong type.
 */
const declaresJson = (ctx: Context): boolean => /^application\/(?:[^/]+\+)?json$/i.test(ctx.request.type.trim());

/**
 * Reads a JSON request body (docs/security.md, body layer): 415 unless `application/json` (or
 * `+json`) or for an unknown `Content-Encoding`; decompressed as it streams; 413 past 1 MiB decoded;
 * 400 for corrupt compressed data, malformed JSON, nesting past 64 levels, or a `__proto__` key.
 * `whenEmpty` answers a request without a body instead of requiring the media type.
 */
export const readJsonBody = async (ctx: Context, options: { whenEmpty?: unknown } = {}): Promise<unknown> => {
  if (options.whenEmpty !== undefined && !hasBody(ctx.req)) return options.whenEmpty;
  if (!declaresJson(ctx)) throw new UnsupportedMediaTypeError();
  const coding = parseContentEncoding(ctx.get('Content-Encoding'));
  const chunks: Buffer[] = [];
  for await (const chunk of decodedBody(ctx.req, { coding, maxBytes: MAX_JSON_BODY_BYTES })) chunks.push(chunk);
  // JSON is UTF-8 (RFC 8259); a byte-order mark is tolerated.
  const text = Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
  if (text === '') return {};
  return parseJsonText(text, { malformed: 'Request body is not valid JSON' });
};
