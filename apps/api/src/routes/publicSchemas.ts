import { dataIdSchema, itemDataSchema } from '@pubstream/domain';
import { z } from 'zod';

// The bodies of the public read routes (docs/public-api.md): the OpenAPI document is made from
// these, and the replies are typed by them (publicReplies.ts), so neither can drift from the other.

const isoTime = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601, UTC' });
const count = z.number().int().min(0);

export const itemSchema = z
  .object({
    id: z.string().meta({ description: 'Internal id; a new one when a deleted dataId is created again' }),
    dataId: dataIdSchema,
    collectionId: z.string().meta({ description: 'The slug of the item\'s collection' }),
    data: itemDataSchema,
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .meta({ id: 'Item', description: 'One data item.' });

export const listItemSchema = z.object({ dataId: dataIdSchema, data: itemDataSchema }).meta({ id: 'ListItem' });

export const batchAnswerSchema = z
  .object({
    data: z.array(listItemSchema).meta({ description: 'The items found, in request order (duplicates answered once), with only the asked `fields`' }),
    found: count.meta({ description: 'The length of `data`' }),
    notFound: z.array(z.string()).meta({ description: 'The ids that do not exist, in request order' }),
  })
  .meta({ id: 'BatchAnswer' });

export const pageSchema = z
  .object({
    data: z.array(listItemSchema),
    total: count.meta({ description: 'Items in the collection' }),
    page: z.number().int().min(1),
    limit: z.number().int().min(1).max(100),
    totalPages: count.meta({ description: 'A page past the last is empty, with the true total and totalPages' }),
  })
  .meta({ id: 'Page', description: 'One page of a collection.' });

export const changeSchema = z
  .object({
    position: z.number().int().min(0).meta({ description: 'The log position of the change' }),
    dataId: dataIdSchema,
    action: z.enum(['update', 'delete']),
    version: z.number().int().min(0).meta({ description: 'The item version after the change (0 for the first)' }),
    data: itemDataSchema.meta({ description: 'The item\'s data after the change; `{}` for a delete' }),
  })
  .meta({ id: 'Change' });

export const changesAnswerSchema = z
  .object({
    changes: z.array(changeSchema),
    nextSince: z.number().int().min(0).meta({ description: 'Pass as `since` next time: nothing after it is missed' }),
    hasMore: z.boolean().meta({ description: 'True when more changes follow at once' }),
  })
  .meta({ id: 'ChangesAnswer' });

export type ItemBody = z.output<typeof itemSchema>;
export type BatchAnswer = z.output<typeof batchAnswerSchema>;
export type PageBody = z.output<typeof pageSchema>;
export type ChangesAnswer = z.output<typeof changesAnswerSchema>;
