import { z } from 'zod';

/** 1–128 chars of [A-Za-z0-9._~-], starting with a letter or digit (docs/decisions.md, "dataId format"). */
export const DATA_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;
/** Collection slugs: lower-case, URL-safe, 1–64 chars. */
const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Sortable data field names: identifiers, so they are safe in index key names. */
export const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export const isValidDataId = (value: string): boolean => DATA_ID_PATTERN.test(value);
export const isValidSlug = (value: string): boolean => SLUG_PATTERN.test(value);

export const dataIdSchema = z.string().regex(DATA_ID_PATTERN, 'Invalid dataId format');
export const slugSchema = z
  .string()
  .regex(SLUG_PATTERN, 'Invalid collection slug: 1-64 chars of a-z, 0-9 and -, starting with a letter or digit');

export const streamNames = {
  collection: (slug: string) => `collection-${slug}`,
  item: (dataId: string) => `item-${dataId}`,
  apiKey: (keyId: string) => `apikey-${keyId}`,
  project: 'project',
  /** `keyHash`: SHA-256 (hex) of the Idempotency-Key, so the key itself names no stream. */
  idempotency: (keyHash: string) => `idempotency-${keyHash}`,
} as const;

/**
 * Every stream this service writes starts with one of these; subscriptions filter on them.
 * `idempotency-` streams feed no projection, but belong to the log (exports keep them).
 */
export const STREAM_PREFIXES = ['collection-', 'item-', 'apikey-', 'project', 'idempotency-'] as const;
