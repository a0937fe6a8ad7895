import { DATA_ID_PATTERN, ValidationError } from '@pubstream/domain';
import { z } from 'zod';

export const MAX_BATCH_IDS = 100;

const idsMessage = `dataIds must be an array of 1 to ${MAX_BATCH_IDS} data identifiers`;
const fieldsMessage = 'fields must be an array of field names (strings)';

/** The body of POST /public/batch: validates it, and describes it in the OpenAPI document. */
export const batchBodySchema = z
  .object(
    {
      dataIds: z
        .array(z.string({ error: 'Invalid dataId format' }).regex(DATA_ID_PATTERN, 'Invalid dataId format'), { error: idsMessage })
        .min(1, idsMessage)
        .max(MAX_BATCH_IDS, { error: (issue) => `Too many dataIds: at most ${MAX_BATCH_IDS} per request (got ${(issue.input as unknown[]).length})` })
        .meta({ description: '1 to 100 ids; duplicates are answered once' }),
      fields: z
        .array(z.string({ error: fieldsMessage }).min(1, fieldsMessage), { error: fieldsMessage })
        .nullish()
        .meta({ description: 'Keep only these top-level keys of each item\'s `data`' }),
    },
    { error: 'Request body must be a JSON object with a dataIds array' },
  )
  .meta({ id: 'BatchRequest' });

export interface BatchRequest {
  /** Requested ids without duplicates, in request order. */
  readonly dataIds: readonly string[];
  /** Top-level keys of `data` to keep; null keeps everything. */
  readonly fields: readonly string[] | null;
}

/**
 * The body of POST /public/batch (docs/public-api.md, "Batch"): `dataIds` 1–100 valid ids (duplicates are
 * answered once, request order kept; over 100 is 400), optional `fields` as strings. The first
 * problem is the message: the ids' count before their format, as a person fixes them.
 */
export const parseBatchRequest = (body: unknown): BatchRequest => {
  const parsed = batchBodySchema.safeParse(body);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? idsMessage);
  const { dataIds, fields } = parsed.data;
  return { dataIds: [...new Set(dataIds)], fields: fields === null || fields === undefined ? null : [...new Set(fields)] };
};

/**
 * Keeps only the named top-level keys of an item's data. Keys are defined as own properties
 * (Object.fromEntries), never assigned, so no field name can reach a prototype (docs/decisions.md).
 */
export const pickFields = (data: Readonly<Record<string, unknown>>, fields: readonly string[] | null): Readonly<Record<string, unknown>> => {
  if (fields === null) return data;
  return Object.fromEntries(fields.filter((field) => Object.hasOwn(data, field)).map((field) => [field, data[field]]));
};
