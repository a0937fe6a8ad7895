import type { Context } from 'koa';
import coBody from 'co-body';
import { UnsupportedMediaTypeError } from '@pubstream/domain';

/** Largest accepted request body (DESIGN.md §6): bigger is 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a JSON request body: 415 unless `Content-Type: application/json`, 400 for bad JSON, 413 over 1 MiB. */
export const readJsonBody = async (ctx: Context): Promise<unknown> => {
  if (!ctx.is('application/json')) throw new UnsupportedMediaTypeError();
  return coBody.json(ctx.req, { limit: MAX_BODY_BYTES, strict: true });
};
