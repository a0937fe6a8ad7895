import { itemDataSchema, keyTypeSchema, planNameSchema, slugSchema, sortableFieldSchema } from '@pubstream/domain';
import { parseWith, readJsonBody } from '@pubstream/http';
import type { Context } from 'koa';
import { z } from 'zod';

const name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const rateLimit = z.number().int('must be an integer').positive('must be positive');
const allowedDomains = z.union([z.array(z.string()).max(100), z.string()]);

// The JSON bodies of the admin API (docs/admin-api.md): unknown fields are refused.
export const createCollectionBody = z.strictObject({ slug: slugSchema, name, sortableFields: z.array(sortableFieldSchema).default([]) });
export const updateCollectionBody = z
  .strictObject({ name: name.optional(), sortableFields: z.array(sortableFieldSchema).optional() })
  .refine((body) => body.name !== undefined || body.sortableFields !== undefined, 'Give name and/or sortableFields');
export const putItemBody = z.strictObject({ data: itemDataSchema });
export const createKeyBody = z.strictObject({ name, type: keyTypeSchema, allowedDomains: allowedDomains.default([]), rateLimit: rateLimit.optional() });
export const updateKeyBody = z
  .strictObject({ name: name.optional(), allowedDomains: allowedDomains.optional(), rateLimit: rateLimit.optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'Give name, allowedDomains and/or rateLimit');
export const setPlanBody = z.strictObject({ plan: planNameSchema, monthlyQuota: z.number().int().positive().nullable().optional() });

/** The JSON body, raw (what an Idempotency-Key is bound to) and validated (400 naming the field). */
export const readBodies = async <T>(ctx: Context, schema: z.ZodType<T>): Promise<{ raw: unknown; body: T }> => {
  const raw = await readJsonBody(ctx, { whenEmpty: {} });
  return { raw, body: parseWith(schema, raw) };
};

/** A decoded path parameter of the matched route ('' when absent). */
export const param = (ctx: Context, key: string): string => (ctx.params as Record<string, string>)[key] ?? '';
