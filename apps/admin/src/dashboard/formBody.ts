import { UnsupportedMediaTypeError } from '@pubstream/domain';
import { decodedBody, parseContentEncoding } from '@pubstream/http';
import type { Context } from 'koa';

const MAX_FORM_BYTES = 64 * 1024;

/** Reads an `application/x-www-form-urlencoded` body (what a plain HTML form posts), at most 64 KiB decoded, through the shared body layer. */
export const readForm = async (ctx: Context): Promise<URLSearchParams> => {
  if (ctx.request.type !== 'application/x-www-form-urlencoded') throw new UnsupportedMediaTypeError('Send the form as application/x-www-form-urlencoded');
  const chunks: Buffer[] = [];
  const coding = parseContentEncoding(ctx.get('Content-Encoding'));
  for await (const chunk of decodedBody(ctx.req, { coding, maxBytes: MAX_FORM_BYTES, tooLargeMessage: 'The form is larger than 64 KiB' })) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};
