import { ValidationError, isValidDataId, isValidSlug } from '@pubstream/domain';
import { echoInput } from '@pubstream/http';

/** Limits of the specification (Limits table). */
export const MAX_SUBSCRIBED_COLLECTIONS = 25;
export const MAX_SUBSCRIBED_DATA_IDS = 100;

export interface SubscribeQuery {
  readonly collections: readonly string[];
  readonly dataIds: readonly string[];
}

type QueryValue = string | string[] | undefined;

/** `a,b` or repeated parameters; blanks dropped, duplicates kept once, order kept. */
const splitList = (value: QueryValue): string[] => {
  const raw = Array.isArray(value) ? value.join(',') : (value ?? '');
  const seen = new Set<string>();
  for (const part of raw.split(',')) {
    const entry = part.trim();
    if (entry !== '') seen.add(entry);
  }
  return [...seen];
};

/**
 * Validates the `collections` and `dataIds` parameters of GET /subscribe. Throws ValidationError
 * (400) with a message that names the problem.
 */
export const parseSubscribeQuery = (query: { collections?: QueryValue; dataIds?: QueryValue }): SubscribeQuery => {
  const collections = splitList(query.collections);
  const dataIds = splitList(query.dataIds);
  if (collections.length === 0 && dataIds.length === 0) {
    throw new ValidationError('Nothing to subscribe to: pass collections=slug1,slug2 and/or dataIds=id1,id2');
  }
  if (collections.length > MAX_SUBSCRIBED_COLLECTIONS) {
    throw new ValidationError(`Too many collections: at most ${MAX_SUBSCRIBED_COLLECTIONS} per subscription (got ${collections.length})`);
  }
  if (dataIds.length > MAX_SUBSCRIBED_DATA_IDS) {
    throw new ValidationError(`Too many dataIds: at most ${MAX_SUBSCRIBED_DATA_IDS} per subscription (got ${dataIds.length})`);
  }
  const badSlug = collections.find((slug) => !isValidSlug(slug));
  if (badSlug !== undefined) throw new ValidationError(`Invalid collection slug: ${JSON.stringify(echoInput(badSlug))}`);
  const badId = dataIds.find((id) => !isValidDataId(id));
  if (badId !== undefined) throw new ValidationError(`Invalid dataId format: ${JSON.stringify(echoInput(badId))}`);
  return { collections, dataIds };
};
