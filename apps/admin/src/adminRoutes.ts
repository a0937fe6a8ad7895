import Router from '@koa/router';
import { keyTypeSchema, planNameSchema, slugSchema, sortableFieldSchema, itemDataSchema, UnsupportedMediaTypeError } from '@pubstream/domain';
import { decodedBody, parseContentEncoding, parseWith, readJsonBody } from '@pubstream/http';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AdminService, KeyView, WriteResult } from './adminService.js';
import { IMPORT_MAX_EXPANSION, importItems } from './importItems.js';
import type { ImportResponder } from './importResponder.js';
import { defaultUsageFrom, usageReport, type UsageGranularity, type UsageReportStores } from './usageReport.js';
import type { WriteResponder } from './writeResponder.js';

const name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const rateLimit = z.number().int('must be an integer').positive('must be positive');
const allowedDomains = z.union([z.array(z.string()).max(100), z.string()]);

const createCollectionBody = z.strictObject({ slug: slugSchema, name, sortableFields: z.array(sortableFieldSchema).default([]) });
const updateCollectionBody = z
  .strictObject({ name: name.optional(), sortableFields: z.array(sortableFieldSchema).optional() })
  .refine((body) => body.name !== undefined || body.sortableFields !== undefined, 'Give name and/or sortableFields');
const putItemBody = z.strictObject({ data: itemDataSchema });
const createKeyBody = z.strictObject({ name, type: keyTypeSchema, allowedDomains: allowedDomains.default([]), rateLimit: rateLimit.optional() });
const updateKeyBody = z
  .strictObject({ name: name.optional(), allowedDomains: allowedDomains.optional(), rateLimit: rateLimit.optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'Give name, allowedDomains and/or rateLimit');
const setPlanBody = z.strictObject({ plan: planNameSchema, monthlyQuota: z.number().int().positive().nullable().optional() });
const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).transform((value) => new Date(value));
const usageQuery = z.object({
  granularity: z.enum(['hour', 'day', 'month'], { error: 'granularity must be hour, day or month' }).default('day'),
  from: isoDate.optional(),
  to: isoDate.optional(),
  keyId: z.string().min(1).optional(),
});

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines', 'text/plain'];

const param = (ctx: Context, key: string): string => (ctx.params as Record<string, string>)[key] ?? '';

/** The JSON body, raw (what an Idempotency-Key is bound to) and validated. */
const readBodies = async <T>(ctx: Context, schema: z.ZodType<T>): Promise<{ raw: unknown; body: T }> => {
  const raw = await readJsonBody(ctx, { whenEmpty: {} });
  return { raw, body: parseWith(schema, raw) };
};

// What each write answers (recorded with an Idempotency-Key and replayed to exact retries).
const created = <T>(result: WriteResult<T>) => ({ status: result.created ? 201 : 200, body: result.value });
const ok = <T>(result: WriteResult<T>) => ({ status: 200, body: result.value });
const noContent = () => ({ status: 204, body: null });
const keyCreated = (result: WriteResult<KeyView & { key: string | null }>) => ({
  status: 201,
  body: {
    ...result.value,
    message: result.value.key === null ? 'This Idempotency-Key already created this key; the full key is shown only once, at creation' : 'Copy the key now: it is shown only once',
  },
});

/** The admin HTTP API (docs/admin-api.md); authentication is applied in front of it. */
export const createAdminRoutes = (deps: { service: AdminService; stores: UsageReportStores; respond: WriteResponder; respondImport: ImportResponder; newId: () => string; now: () => Date }) => {
  const { service, respond, respondImport } = deps;
  // Case-sensitive and strict: the path was normalised once, and the auth gate judged that same spelling.
  const router = new Router({ prefix: '/admin', sensitive: true, strict: true });

  router.get('/collections', async (ctx) => {
    ctx.body = { data: await service.listCollections() };
  });
  router.post('/collections', async (ctx) => {
    const { raw, body } = await readBodies(ctx, createCollectionBody);
    await respond(ctx, raw, (options) => service.createCollection(body, options), created);
    ctx.set('Location', `/admin/collections/${body.slug}`);
  });
  router.get('/collections/:slug', async (ctx) => {
    ctx.body = await service.getCollection(param(ctx, 'slug'));
  });
  router.patch('/collections/:slug', async (ctx) => {
    const { raw, body } = await readBodies(ctx, updateCollectionBody);
    await respond(ctx, raw, (options) => service.updateCollection(param(ctx, 'slug'), body, options), ok);
  });
  router.delete('/collections/:slug', async (ctx) => {
    await respond(ctx, {}, (options) => service.deleteCollection(param(ctx, 'slug'), options), noContent);
  });

  router.post('/collections/:slug/items\\:import', async (ctx) => {
    const type = ctx.request.type;
    if (!NDJSON_TYPES.includes(type)) throw new UnsupportedMediaTypeError('Content-Type must be application/x-ndjson (one JSON object per line)');
    const slug = param(ctx, 'slug');
    // Compressed imports go through the shared body layer; each line is bounded, not the total.
    const body = decodedBody(ctx.req, { coding: parseContentEncoding(ctx.get('Content-Encoding')), maxBytes: Infinity, maxExpansion: IMPORT_MAX_EXPANSION });
    await respondImport(ctx, body, async (input, idempotencyKey) => {
      await service.activeCollection(slug);
      return importItems(input, slug, { writeItems: service.writeItems, newId: deps.newId, idempotencyKey });
    });
  });
  router.get('/collections/:slug/items/:dataId', async (ctx) => {
    ctx.body = await service.getItem(param(ctx, 'slug'), param(ctx, 'dataId'));
  });
  router.put('/collections/:slug/items/:dataId', async (ctx) => {
    const { raw, body } = await readBodies(ctx, putItemBody);
    await respond(ctx, raw, (options) => service.putItem(param(ctx, 'slug'), param(ctx, 'dataId'), body.data, options), created);
  });
  router.delete('/collections/:slug/items/:dataId', async (ctx) => {
    await respond(ctx, {}, (options) => service.deleteItem(param(ctx, 'slug'), param(ctx, 'dataId'), options), noContent);
  });

  router.get('/keys', async (ctx) => {
    ctx.body = { data: await service.listKeys() };
  });
  router.post('/keys', async (ctx) => {
    const { raw, body } = await readBodies(ctx, createKeyBody);
    ctx.set('Cache-Control', 'no-store');
    await respond(ctx, raw, (options) => service.createKey(body, options), keyCreated);
  });
  router.get('/keys/:keyId', async (ctx) => {
    ctx.body = await service.getKey(param(ctx, 'keyId'));
  });
  router.patch('/keys/:keyId', async (ctx) => {
    const { raw, body } = await readBodies(ctx, updateKeyBody);
    await respond(ctx, raw, (options) => service.updateKey(param(ctx, 'keyId'), body, options), ok);
  });
  router.delete('/keys/:keyId', async (ctx) => {
    await respond(ctx, {}, (options) => service.deleteKey(param(ctx, 'keyId'), options), noContent);
  });

  router.get('/plan', async (ctx) => {
    ctx.body = await service.getPlan();
  });
  router.put('/plan', async (ctx) => {
    const { raw, body } = await readBodies(ctx, setPlanBody);
    await respond(ctx, raw, (options) => service.setPlan(body, options), ok);
  });

  router.get('/usage', async (ctx) => {
    const query = parseWith(usageQuery, ctx.query);
    const to = query.to ?? deps.now();
    const granularity: UsageGranularity = query.granularity;
    ctx.body = await usageReport(deps.stores, { granularity, to, from: query.from ?? defaultUsageFrom(granularity, to), keyId: query.keyId });
  });

  return {
    routes: router.routes(),
    allowedMethods: router.allowedMethods(),
  };
};
