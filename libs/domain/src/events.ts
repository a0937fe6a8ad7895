import { z } from 'zod';
import { dataIdSchema, FIELD_NAME_PATTERN, slugSchema } from './ids.js';
import { planNameSchema } from './plans.js';

export const sortableFieldSchema = z.object({
  name: z.string().regex(FIELD_NAME_PATTERN, 'Sortable field names are identifiers: letters, digits and _'),
  type: z.enum(['number', 'string']),
});
export type SortableField = z.infer<typeof sortableFieldSchema>;

/** Free-form item content: a JSON object. */
export const itemDataSchema = z.record(z.string(), z.unknown());
export type ItemData = z.infer<typeof itemDataSchema>;

export const keyTypeSchema = z.enum(['live', 'test']);
export type KeyType = z.infer<typeof keyTypeSchema>;

// ---- collection-{slug}
export const collectionCreatedSchema = z.object({
  type: z.literal('CollectionCreated'),
  data: z.object({ slug: slugSchema, name: z.string(), sortableFields: z.array(sortableFieldSchema) }),
});
export const collectionUpdatedSchema = z.object({
  type: z.literal('CollectionUpdated'),
  data: z.object({ slug: slugSchema, name: z.string(), sortableFields: z.array(sortableFieldSchema) }),
});
export const collectionDeletedSchema = z.object({
  type: z.literal('CollectionDeleted'),
  data: z.object({ slug: slugSchema }),
});

// ---- item-{dataId}
export const itemCreatedSchema = z.object({
  type: z.literal('ItemCreated'),
  data: z.object({ id: z.string().uuid(), dataId: dataIdSchema, collection: slugSchema, data: itemDataSchema }),
});
export const itemUpdatedSchema = z.object({
  type: z.literal('ItemUpdated'),
  data: z.object({ dataId: dataIdSchema, collection: slugSchema, data: itemDataSchema }),
});
export const itemDeletedSchema = z.object({
  type: z.literal('ItemDeleted'),
  data: z.object({ dataId: dataIdSchema, collection: slugSchema }),
});

// ---- apikey-{keyId}
export const apiKeyCreatedSchema = z.object({
  type: z.literal('ApiKeyCreated'),
  data: z.object({
    keyId: z.string(),
    name: z.string(),
    type: keyTypeSchema,
    /** SHA-256 (hex) of the full key; the key itself is never stored. */
    keyHash: z.string().regex(/^[0-9a-f]{64}$/),
    last4: z.string(),
    allowedDomains: z.array(z.string()),
    rateLimit: z.number().int().positive(),
  }),
});
export const apiKeyUpdatedSchema = z.object({
  type: z.literal('ApiKeyUpdated'),
  data: z.object({
    keyId: z.string(),
    name: z.string(),
    allowedDomains: z.array(z.string()),
    rateLimit: z.number().int().positive(),
  }),
});
export const apiKeyDeletedSchema = z.object({
  type: z.literal('ApiKeyDeleted'),
  data: z.object({ keyId: z.string(), keyHash: z.string() }),
});

// ---- project
export const planChangedSchema = z.object({
  type: z.literal('PlanChanged'),
  data: z.object({
    plan: planNameSchema,
    /** Requests per calendar month (UTC) across live keys; null = no monthly quota. */
    monthlyQuota: z.number().int().positive().nullable(),
  }),
});

// ---- idempotency-{SHA-256 of an Idempotency-Key}: the request a key was first used with
/** A write's answer as the client saw it: replayed to exact retries of the request. */
export const storedResponseSchema = z.object({
  status: z.number().int().min(200).max(299),
  /** The JSON body (null for 204); never holds a raw API key. */
  body: z.unknown(),
});
export type StoredResponse = { readonly status: number; readonly body: unknown };

export const idempotentRequestRecordedSchema = z.object({
  type: z.literal('IdempotentRequestRecorded'),
  data: z.object({
    /** SHA-256 (hex) of the request: method, route, parameters and canonical JSON body. */
    fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
    method: z.string(),
    path: z.string(),
    response: storedResponseSchema,
  }),
});
/** The write was answered 202 (committed, read model not yet confirmed) at this log position. */
export const idempotentResponseAcceptedSchema = z.object({
  type: z.literal('IdempotentResponseAccepted'),
  data: z.object({ position: z.number().int().nonnegative() }),
});

export const pubstreamEventSchema = z.discriminatedUnion('type', [
  collectionCreatedSchema,
  collectionUpdatedSchema,
  collectionDeletedSchema,
  itemCreatedSchema,
  itemUpdatedSchema,
  itemDeletedSchema,
  apiKeyCreatedSchema,
  apiKeyUpdatedSchema,
  apiKeyDeletedSchema,
  planChangedSchema,
  idempotentRequestRecordedSchema,
  idempotentResponseAcceptedSchema,
]);

export type PubstreamEvent = z.infer<typeof pubstreamEventSchema>;
export type EventType = PubstreamEvent['type'];
export type EventOf<T extends EventType> = Extract<PubstreamEvent, { type: T }>;
export type CollectionEvent = EventOf<'CollectionCreated' | 'CollectionUpdated' | 'CollectionDeleted'>;
export type ItemEvent = EventOf<'ItemCreated' | 'ItemUpdated' | 'ItemDeleted'>;
export type ApiKeyEvent = EventOf<'ApiKeyCreated' | 'ApiKeyUpdated' | 'ApiKeyDeleted'>;
export type ProjectEvent = EventOf<'PlanChanged'>;
export type IdempotencyEvent = EventOf<'IdempotentRequestRecorded' | 'IdempotentResponseAccepted'>;

export const EVENT_TYPES: readonly EventType[] = pubstreamEventSchema.options.map((o) => o.shape.type.value);

