import { isValidDataId, ValidationError } from '@pubstream/domain';

export const MAX_BATCH_IDS = 100;

export interface BatchRequest {
  /** Requested ids without duplicates, in request order. */
  readonly dataIds: readonly string[];
  /** Top-level keys of `data` to keep; null keeps everything. */
  readonly fields: readonly string[] | null;
}

/**
 * The body of POST /public/batch (docs/public-api.md, "Batch"): `dataIds` 1–100 valid ids (duplicates are
 * answered once, request order kept; over 100 is 400), optional `fields` as strings.
 */
export const parseBatchRequest = (body: unknown): BatchRequest => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('Request body must be a JSON object with a dataIds array');
  }
  const { dataIds, fields } = body as { dataIds?: unknown; fields?: unknown };
  if (!Array.isArray(dataIds) || dataIds.length === 0) {
    throw new ValidationError(`dataIds must be an array of 1 to ${MAX_BATCH_IDS} data identifiers`);
  }
  if (dataIds.length > MAX_BATCH_IDS) {
    throw new ValidationError(`Too many dataIds: at most ${MAX_BATCH_IDS} per request (got ${dataIds.length})`);
  }
  for (const id of dataIds) {
    if (typeof id !== 'string' || !isValidDataId(id)) throw new ValidationError('Invalid dataId format');
  }
  let keep: string[] | null = null;
  if (fields !== undefined && fields !== null) {
    if (!Array.isArray(fields) || fields.some((field) => typeof field !== 'string' || field === '')) {
      throw new ValidationError('fields must be an array of field names (strings)');
    }
    keep = [...new Set(fields as string[])];
  }
  return { dataIds: [...new Set(dataIds as string[])], fields: keep };
};

/**
 * Keeps only the named top-level keys of an item's data. Keys are defined as own properties
 * (Object.fromEntries), never assigned, so no field name can reach a prototype (docs/decisions.md).
 */
export const pickFields = (data: Readonly<Record<string, unknown>>, fields: readonly string[] | null): Readonly<Record<string, unknown>> => {
  if (fields === null) return data;
  return Object.fromEntries(fields.filter((field) => Object.hasOwn(data, field)).map((field) => [field, data[field]]));
};
