import type { ReadAllOptions, RecordedEvent } from './eventStore.js';

/** Up to `limit` events with a position greater than `after` and at most `until`, in position order. */
export type ReadPage = (after: number, limit: number, until: number | undefined) => RecordedEvent[];

/**
 * readAll on a store that reads by position ranges: page after page of at most `pageSize`
 * events (never the whole log at once), until the log, `until` or `maxCount` ends it.
 */
export function* readAllInPages(readPage: ReadPage, pageSize: number, options: ReadAllOptions = {}): Generator<RecordedEvent> {
  let cursor = options.after ?? 0;
  let remaining = options.maxCount ?? Number.POSITIVE_INFINITY;
  while (remaining > 0) {
    const limit = Math.min(pageSize, remaining);
    const page = readPage(cursor, limit, options.until);
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < limit) return;
    remaining -= page.length;
    cursor = last.position;
  }
}
