import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '@pubstream/domain';
import coBody from 'co-body';
import type { Context } from 'koa';
import type { z } from 'zod';

export const MAX_JSON_BODY = '1mb';

const hasBody = (ctx: Context): boolean => {
  const length = ctx.get('content-length');
  return ctx.get('transfer-encoding') !== '' || (length !== '' && length !== '0');
};

/** The request's JSON body (`{}` when there is none); 415 for other media types, 400 for bad JSON, 413 over 1 MiB. */
export const readJsonBody = async (ctx: Context): Promise<unknown> => {
  if (!hasBody(ctx)) return {};
  if (!ctx.is('application/json', 'application/*+json')) throw new UnsupportedMediaTypeError();
  try {
    return await coBody.json(ctx.req, { limit: MAX_JSON_BODY, strict: true });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw new PayloadTooLargeError();
    if (type === 'entity.parse.failed') throw new ValidationError('Malformed JSON body');
    throw error;
  }
};

const describeIssues = (error: z.ZodError): string =>
  error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');

/** Parses a value with a zod schema; a mismatch is 400 with the first few issues named. */
export const parseWith = <T>(schema: z.ZodType<T>, value: unknown): T => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(describeIssues(parsed.error));
  return parsed.data;
};

/** Reads the JSON body and validates it. */
export const readBody = async <T>(ctx: Context, schema: z.ZodType<T>): Promise<T> => parseWith(schema, await readJsonBody(ctx));
