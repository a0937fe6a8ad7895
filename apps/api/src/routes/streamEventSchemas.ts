import { dataIdSchema, itemDataSchema, slugSchema } from '@pubstream/domain';
import { z } from 'zod';
import { MAX_SUBSCRIBED_COLLECTIONS, MAX_SUBSCRIBED_DATA_IDS } from '../subscribe/subscribeQuery.js';
import { pageSchema } from './publicSchemas.js';

// What GET /subscribe takes (its key comes as the `apiKey` query parameter: the document's
// `apiKeyQuery` scheme) and sends (docs/subscriptions.md): the query and the payload of each
// event, for the OpenAPI document and the contract test, which reads real streams against them.

const list = (what: string, max: number) =>
  z.string().meta({ description: `${what}, comma-separated or repeated (at most ${max}); give collections and/or dataIds` }).optional();

export const subscribeQuerySchema = z.object({
  collections: list('Collection slugs', MAX_SUBSCRIBED_COLLECTIONS),
  dataIds: list('Data ids', MAX_SUBSCRIBED_DATA_IDS),
  from: z
    .string()
    .regex(/^[0-9]{1,15}$/)
    .optional()
    .meta({ description: 'Resume after this position (the last `id:` received): no snapshot, every change after it once and in order, then `ready`. A `Last-Event-ID` header wins over it. Older than the kept history: `reset`, then a snapshot' }),
});

const version = z.number().int().min(0).meta({ description: 'The revision of the item; a client may order or de-duplicate by it' });

export const streamEventSchemas = {
  connected: z
    .object({ connectionId: z.string(), ttlMs: z.number().int().min(0).meta({ description: 'The lifetime of this stream (jittered)' }) })
    .meta({ id: 'StreamConnected', description: 'The first event of every stream; a `retry:` line comes with it.' }),
  update: z
    .union([
      z.object({ dataId: dataIdSchema, data: itemDataSchema, action: z.literal('update'), version }).meta({ id: 'StreamItemUpdate', description: 'An item exists or changed.' }),
      z
        .object({ collectionSlug: slugSchema, data: pageSchema, action: z.literal('update') })
        .meta({ id: 'StreamCollectionUpdate', description: 'A collection\'s page 1 (default sort and limit), sent when it changes; empty when the collection is deleted.' }),
    ])
    .meta({ description: 'A snapshot entry or a change' }),
  delete: z
    .object({ dataId: dataIdSchema, data: z.object({}), action: z.literal('delete'), version: version.optional() })
    .meta({ id: 'StreamItemDelete', description: 'An item was deleted (`version` is absent when found missing on a re-sync).' }),
  ready: z
    .object({ position: z.number().int().min(0).meta({ description: 'Everything up to this position has been sent; its `id:` line carries it too' }) })
    .meta({ id: 'StreamReady', description: 'After the snapshot (or the changes of a resume): the stream is current at `position`. Every later change has `id: <position>`.' }),
  reset: z
    .object({ reason: z.literal('position_expired') })
    .meta({ id: 'StreamReset', description: 'The resume position is older than the kept history (RESUME_WINDOW): drop the local copy; a full snapshot follows.' }),
  reconnect: z
    .object({
      reason: z.enum(['cycle', 'shutdown', 'key_revoked', 'slow_consumer', 'plan_changed', 'resync_failed']),
      retryAfterMs: z.number().int().min(0).optional().meta({ description: 'Wait this long before reconnecting (also sent as `retry:`)' }),
    })
    .meta({ id: 'StreamReconnect', description: 'The last event of a stream the server ends on purpose: reconnect (for a fresh snapshot) unless the key was revoked or the plan changed.' }),
} as const;

export type StreamEventName = keyof typeof streamEventSchemas;
