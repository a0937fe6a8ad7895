import { ValidationError } from '@pubstream/domain';
import type { SortOrder } from '@pubstream/read-model';
import { z } from 'zod';

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
/** Sorts every collection has; declared sortable fields come on top. */
export const BUILT_IN_SORT_FIELDS = ['createdAt', 'updatedAt', 'dataId'] as const;

export interface CollectionQuery {
  readonly page: number;
  readonly limit: number;
  readonly sort: string;
  readonly order: SortOrder;
}

/** A query parameter given once: a repeated one is refused with the same explanation. */
const once = (name: string, message: string) =>
  z.string({ error: (issue) => (Array.isArray(issue.input) ? `Invalid ${name}: give it once; ${message}` : `Invalid ${name}: ${message}`) });

/** Decimal digits only: `2.0`, `1e2` and `0x10` are not pages. */
const integerParam = (name: string, min: number, max: number, fallback: number, message: string) =>
  once(name, message)
    .trim()
    .regex(/^\d{1,9}$/, `Invalid ${name}: ${message}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `Invalid ${name}: ${message}`).max(max, `Invalid ${name}: ${message}`))
    .default(fallback);

/**
 * The query of GET /public/collections/{slug}/data (docs/public-api.md, "Collection pages"): validates
 * it, and describes it in the OpenAPI document. `sort` is checked against the collection's own
 * sortable fields once the collection is known (`parseCollectionQuery`).
 */
export const collectionQuerySchema = z.object({
  page: integerParam('page', 1, 999_999_999, 1, 'must be an integer of at least 1'),
  limit: integerParam('limit', 1, MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT, `must be an integer from 1 to ${MAX_PAGE_LIMIT}`),
  order: once('order', 'must be one of asc, desc')
    .pipe(z.enum(['asc', 'desc'], { error: 'Invalid order: must be one of asc, desc' }))
    .default('desc'),
  sort: z
    .string()
    .default('createdAt')
    .meta({ description: '`createdAt`, `updatedAt`, `dataId`, or a sortable field declared on the collection' }),
});

/**
 * Page, limit, sort and order of a collection listing: page an integer ≥ 1, limit 1–100 (default
 * 20), order asc|desc (default desc), sort one of `allowedSorts` (default createdAt). Anything
 * else is 400 naming the allowed values; the first problem, in that order, is the message.
 */
export const parseCollectionQuery = (query: Record<string, string | string[] | undefined>, allowedSorts: readonly string[]): CollectionQuery => {
  // A repeated sort is refused below, naming this collection's sorts, after the other parameters.
  const parsed = collectionQuerySchema.safeParse(Array.isArray(query.sort) ? { ...query, sort: undefined } : query);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? 'Invalid query');
  const { page, limit, order } = parsed.data;
  return { page, limit, order, sort: checkedSort(query.sort, allowedSorts) };
};

/** `sort` (default createdAt) when it is one of `allowedSorts`, else 400 naming them. */
export const checkedSort = (sort: string | string[] | undefined, allowedSorts: readonly string[]): string => {
  // Built only when needed.
  const sortMessage = (): string => `must be one of ${allowedSorts.join(', ')}`;
  if (Array.isArray(sort)) throw new ValidationError(`Invalid sort: give it once; ${sortMessage()}`);
  const value = sort ?? 'createdAt';
  if (!allowedSorts.includes(value)) throw new ValidationError(`Invalid sort: ${sortMessage()}`);
  return value;
};
