import Router from '@koa/router';
import { keyTypeSchema, planNameSchema, slugSchema, sortableFieldSchema, itemDataSchema, UnsupportedMediaTypeError } from '@pubstream/domain';
import { decodedBody, parseContentEncoding, parseWith, readBody } from '@pubstream/http';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AdminService } from './adminService.js';
import { parseIdempotencyKey } from './idempotency.js';
import { IMPORT_MAX_EXPANSION, importItems } from './importItems.js';
import type { ReadYourWrites } from './readYourWrites.js';
import { defaultUsageFrom, usageReport, type UsageGranularity } from './usageReport.js';
import type { ReadModel } from '@pubstream/read-model';

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

const idempotencyOf = (ctx: Context) => ({ idempotencyKey: parseIdempotencyKey(ctx.headers['idempotency-key']) });

const param = (ctx: Context, key: string): string => (ctx.params as Record<string, string>)[key] ?? '';

/** Marks answers that replay an earlier request with the same Idempotency-Key. */
const markReplay = (ctx: Context, replayed: boolean) => {
  if (replayed) ctx.set('Idempotent-Replayed', 'true');
};

/** The admin HTTP API of DESIGN.md §7 (authentication is applied in front of it). */
export const createAdminRoutes = (deps: { service: AdminService; readModel: ReadModel; readYourWrites: ReadYourWrites; newId: () => string; now: () => Date }) => {
  const { service } = deps;
  // Case-sensitive and strict: the path was normalised once, and the auth gate judged that same spelling.
  const router = new Router({ prefix: '/admin', sensitive: true, strict: true });

  router.get('/collections', async (ctx) => {
    ctx.body = { data: await service.listCollections() };
  });
  router.post('/collections', async (ctx) => {
    const body = await readBody(ctx, createCollectionBody);
    const result = await service.createCollection(body, idempotencyOf(ctx));
    markReplay(ctx, result.replayed);
    ctx.status = result.replayed ? 200 : 201;
    ctx.set('Location', `/admin/collections/${result.value.slug}`);
    ctx.body = result.value;
  });
  router.get('/collections/:slug', async (ctx) => {
    ctx.body = await service.getCollection(param(ctx, 'slug'));
  });
  router.patch('/collections/:slug', async (ctx) => {
    const body = await readBody(ctx, updateCollectionBody);
    const result = await service.updateCollection(param(ctx, 'slug'), body, idempotencyOf(ctx));
    markReplay(ctx, result.replayed);
    ctx.body = result.value;
  });
  router.delete('/collections/:slug', async (ctx) => {
    const result = await service.deleteCollection(param(ctx, 'slug'), idempotencyOf(ctx));
    markReplay(ctx, result.replayed);
    ctx.status = 204;
  });

  router.post('/collections/:slug/items\\:import', async (ctx) => {
    const options = idempotencyOf(ctx);
    const type = ctx.request.type;
    if (!NDJSON_TYPES.includes(type)) throw new UnsupportedMediaTypeError('Content-Type must be application/x-ndjson (one JSON object per line)');
    const slug = param(ctx, 'slug');
    await service.activeCollection(slug);
    // Compressed imports go through the shared body layer; each line is bounded, not the total.
    const body = decodedBody(ctx.req, { coding: parseContentEncoding(ctx.get('Content-Encoding')), maxBytes: Infinity, maxExpansion: IMPORT_MAX_EXPANSION });
    const summary = await importItems(body, slug, { writeItems: service.writeItems, newId: deps.newId, idempotencyKey: options.idempotencyKey });
    await deps.readYourWrites(summary.lastPosition);
    const { lastPosition: _lastPosition, ...rest } = summary;
    ctx.body = rest;
  });
  router.get('/collections/:slug/items/:dataId', async (ctx) => {
    ctx.body = await service.getItem(param(ctx, 'slug'), param(ctx, 'dataId'));
  });
  router.put('/collections/:slug/items/:dataId', async (ctx) => {
    const body = await readBody(ctx, putItemBody);
    const result = await service.putItem(param(ctx, 'slug'), param(ctx, 'dataId'), body.data, idempotencyOf(ctx));
    markReplay(ctx, result.replayed);
    ctx.status = result.created ? 201 : 200;
    ctx.body = result.value;
  });
  router.delete('/collections/:slug/items/:dataId', async (ctx) => {
    const result = await service.deleteItem(param(ctx, 'slug'), param(ctx, 'dataId'), idempotencyOf(ctx));
    markReplay(ctx, result.replayed);
    ctx.status = 204;
  });

  router.get('/keys', async (ctx) => {
    ctx.body = { data: await service.listKeys() };
  });
  router.post('/keys', async (ctx) => {
    const body = await readBody(ctx, createKeyBody);
    const result = await service.createKey(body, idempotencyOf(ctx));
    markReplay(ctx, result.replayed);
    ctx.status = result.replayed ? 200 : 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = result.replayed
      ? { ...result.value, message: 'This Idempotency-Key already created this key; the full key is shown only once, at creation' }
      : { ...result.value, message: 'Copy the key now: it is shown only once' };
  });
  router.get('/keys/:keyId', async (ctx) => {
    ctx.body = await service.getKey(param(ctx, 'keyId'));
  });
  router.patch('/keys/:keyId', async (ctx) => {
    const body = await readBody(ctx, updateKeyBody);
    const result = await service.updateKey(param(ctx, 'keyId'), body, idempotencyOf(ctx));
    markReplay(ctx, result.replayed);
    ctx.body = result.value;
  });
  router.delete('/keys/:keyId', async (ctx) => {
    const result = await service.deleteKey(param(ctx, 'keyId'), idempotencyOf(ctx));
    markReplay(ctx, result.replayed);
    ctx.status = 204;
  });

  router.get('/plan', async (ctx) => {
    ctx.body = await service.getPlan();
  });
  router.put('/plan', async (ctx) => {
    const body = await readBody(ctx, setPlanBody);
    const result = await service.setPlan(body, idempotencyOf(ctx));
    markReplay(ctx, result.replayed);
    ctx.body = result.value;
  });

  router.get('/usage', async (ctx) => {
    const query = parseWith(usageQuery, ctx.query);
    const to = query.to ?? deps.now();
    const granularity: UsageGranularity = query.granularity;
    ctx.body = await usageReport(deps.readModel, { granularity, to, from: query.from ?? defaultUsageFrom(granularity, to), keyId: query.keyId });
  });

  return {
    routes: router.routes(),
    // 405 with Allow, rendered by the shared error middleware (@pubstream/http).
    allowedMethods: router.allowedMethods(),
  };
};
