import { ValidationError } from '@pubstream/domain';
import type { SortOrder } from '@pubstream/read-model';

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

type QueryValue = string | string[] | undefined;

const single = (name: string, value: QueryValue, message: string): string | undefined => {
  if (Array.isArray(value)) throw new ValidationError(`Invalid ${name}: give it once; ${message}`);
  return value;
};

const integerIn = (name: string, value: QueryValue, fallback: number, min: number, max: number, message: string): number => {
  const raw = single(name, value, message);
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw.trim())) throw new ValidationError(`Invalid ${name}: ${message}`);
  const parsed = Number(raw.trim());
  if (parsed < min || parsed > max) throw new ValidationError(`Invalid ${name}: ${message}`);
  return parsed;
};

/**
 * Page, limit, sort and order of a collection listing (docs/public-api.md, "Collection pages"): page an integer ≥ 1,
 * limit 1–100 (default 20), order asc|desc (default desc), sort one of `allowedSorts` (default
 * createdAt). Anything else is 400 naming the allowed values.
 */
export const parseCollectionQuery = (
  query: Record<string, QueryValue>,
  allowedSorts: readonly string[],
): CollectionQuery => {
  const page = integerIn('page', query.page, 1, 1, Number.MAX_SAFE_INTEGER, 'must be an integer of at least 1');
  const limit = integerIn('limit', query.limit, DEFAULT_PAGE_LIMIT, 1, MAX_PAGE_LIMIT, `must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
  const orderMessage = 'must be one of asc, desc';
  const order = single('order', query.order, orderMessage) ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw new ValidationError(`Invalid order: ${orderMessage}`);
  // Built only when needed: every page request passes here twice.
  const sortMessage = (): string => `must be one of ${allowedSorts.join(', ')}`;
  if (Array.isArray(query.sort)) throw new ValidationError(`Invalid sort: give it once; ${sortMessage()}`);
  const sort = query.sort ?? 'createdAt';
  if (!allowedSorts.includes(sort)) throw new ValidationError(`Invalid sort: ${sortMessage()}`);
  return { page, limit, sort, order };
};
