import { dataIdSchema, itemDataSchema, keyTypeSchema, planNameSchema, slugSchema, sortableFieldSchema } from '@pubstream/domain';
import { z } from 'zod';

// What the admin API answers (docs/admin-api.md). The views the use cases build are typed by these
// schemas (writeViews.ts, planUseCases.ts, usageReport.ts), and the OpenAPI document is made from them.

const isoTime = z.iso.datetime({ offset: true });
const count = z.number().int().min(0);

export const collectionViewSchema = z
  .object({
    slug: slugSchema,
    name: z.string(),
    sortableFields: z.array(sortableFieldSchema).readonly(),
    createdAt: isoTime.nullable(),
    updatedAt: isoTime.nullable(),
    itemCount: count,
  })
  .meta({ id: 'Collection' });

export const itemViewSchema = z
  .object({ id: z.string(), dataId: dataIdSchema, collectionId: z.string(), data: itemDataSchema, createdAt: isoTime.nullable(), updatedAt: isoTime.nullable() })
  .meta({ id: 'AdminItem' });

export const keyViewSchema = z
  .object({
    keyId: z.string(),
    name: z.string(),
    type: keyTypeSchema,
    maskedKey: z.string().meta({ description: 'The prefix and the last 4 characters' }),
    allowedDomains: z.array(z.string()).readonly(),
    rateLimit: z.number().int().min(1).meta({ description: 'Requests per window' }),
    createdAt: isoTime,
    lastUsedAt: isoTime.nullable(),
    requestCount: count,
  })
  .meta({ id: 'Key' });

export const newKeySchema = z
  .object({
    ...keyViewSchema.shape,
    key: z.string().nullable().meta({ description: 'The full key, shown only once; null on a replay of its Idempotency-Key' }),
    message: z.string(),
  })
  .meta({ id: 'NewKey' });

export const planViewSchema = z
  .object({
    plan: planNameSchema,
    monthlyQuota: z.number().int().min(1).nullable(),
    limits: z.object({ defaultRateLimit: count, maxRateLimit: count, reactive: z.boolean(), maxStreamsPerKey: count }),
  })
  .meta({ id: 'Plan' });

export const keyUsageSchema = z
  .object({
    keyId: z.string(),
    name: z.string(),
    type: keyTypeSchema,
    maskedKey: z.string(),
    requestCount: count,
    lastUsedAt: isoTime.nullable(),
    total: count.meta({ description: 'Requests inside [from, to]' }),
    series: z.array(z.object({ bucket: z.string(), count })),
  })
  .meta({ id: 'KeyUsage' });

export const usageReportSchema = z
  .object({
    granularity: z.enum(['hour', 'day', 'month']),
    from: isoTime,
    to: isoTime,
    totals: z.object({ live: count, test: count }),
    keys: z.array(keyUsageSchema),
  })
  .meta({ id: 'UsageReport' });

export const importSummarySchema = z
  .object({
    lines: count.meta({ description: 'Non-empty lines read' }),
    created: count,
    updated: count,
    unchanged: count,
    failed: count,
    errors: z.array(z.object({ line: z.number().int().min(1), dataId: z.string().optional(), message: z.string() })).meta({ description: 'The first failures' }),
  })
  .meta({ id: 'ImportSummary' });

const position = z.number().int().min(0).meta({ description: 'The write\'s log position; visible once the projector has applied it (also in X-Position)' });

/** A 202 (committed, not yet confirmed): the answer the write would have had, plus its position. */
export const accepted = <T extends z.ZodObject>(schema: T, id: string) => schema.extend({ position }).meta({ id });
export const acceptedDeleteSchema = z.object({ position }).meta({ id: 'AcceptedDelete' });

export type CollectionView = z.output<typeof collectionViewSchema>;
export type ItemView = z.output<typeof itemViewSchema>;
export type KeyView = z.output<typeof keyViewSchema>;
export type PlanView = z.output<typeof planViewSchema>;
