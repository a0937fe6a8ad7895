import type { Clock } from './clock.js';
import type { ApiRequest } from './httpTransport.js';
import type { ChangesOptions, ItemChange } from './types.js';

/** One answer of the changes feed. */
interface ChangesPage {
  changes: ItemChange[];
  nextSince: number;
  hasMore: boolean;
}

/** What {@link changesFeed} needs: the client's retried request and its clock. */
export interface ChangesFeedDeps {
  request: <T>(req: ApiRequest) => Promise<T>;
  clock: Clock;
}

/**
 * Every change of a collection after `since`, in order, each once (docs/public-api.md, the changes
 * feed): pages through `GET /public/collections/{slug}/changes` with each answer's `nextSince`;
 * once caught up, polls every `pollIntervalMs` (or ends, with `follow: false`). Breaking out of
 * the loop or aborting `signal` stops it. A `since` older than the server's history rejects with
 * `PositionExpiredError` (410): re-read the collection and start again from its position.
 */
export async function* changesFeed(deps: ChangesFeedDeps, slug: string, options: ChangesOptions = {}): AsyncGenerator<ItemChange, void, undefined> {
  let since = options.since ?? 0;
  const follow = options.follow ?? true;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  for (;;) {
    const page = await deps.request<ChangesPage>({
      method: 'GET',
      path: `/public/collections/${encodeURIComponent(slug)}/changes`,
      query: { since, limit: options.limit, minPosition: options.minPosition },
      signal: options.signal,
    });
    for (const change of page.changes) yield change;
    // nextSince never goes back: a node behind the one answering before would otherwise repeat changes.
    since = Math.max(since, page.nextSince);
    if (page.hasMore) continue;
    if (!follow) return;
    await deps.clock.sleep(pollIntervalMs, options.signal);
  }
}
