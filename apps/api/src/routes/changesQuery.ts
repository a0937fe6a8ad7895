import { ValidationError } from '@pubstream/domain';
import { positionParam } from '../positions/minPosition.js';

export const DEFAULT_CHANGES_LIMIT = 100;
export const MAX_CHANGES_LIMIT = 1_000;

export interface ChangesQuery {
  /** Changes after this position; 0 (the start of the log) when not given. */
  readonly since: number;
  readonly limit: number;
}

/**
 * `since` and `limit` of GET /public/collections/:slug/changes (docs/public-api.md, "Changes
 * feed"): since a position (400 `Invalid position` otherwise), limit 1–1000 (default 100).
 */
export const parseChangesQuery = (query: Record<string, string | string[] | undefined>): ChangesQuery => {
  const since = positionParam(query.since) ?? 0;
  const raw = query.limit;
  if (raw === undefined) return { since, limit: DEFAULT_CHANGES_LIMIT };
  const limit = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_CHANGES_LIMIT)) throw new ValidationError(`Invalid limit: must be an integer from 1 to ${MAX_CHANGES_LIMIT}`);
  return { since, limit };
};
