import { PayloadTooLargeError, UnsupportedMediaTypeError } from '@pubstream/domain';
import type { Context } from 'koa';

const MAX_FORM_BYTES = 64 * 1024;

/** Reads an `application/x-www-form-urlencoded` body (what a plain HTML form posts), at most 64 KiB. */
export const readForm = async (ctx: Context): Promise<URLSearchParams> => {
  if (ctx.request.type !== 'application/x-www-form-urlencoded') throw new UnsupportedMediaTypeError('Send the form as application/x-www-form-urlencoded');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new PayloadTooLargeError('The form is larger than 64 KiB');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};
