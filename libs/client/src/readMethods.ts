import { mergeBatchResults, splitIntoBatches } from './batching.js';
import type { Clock } from './clock.js';
import { type ApiRequest, type FetchLike, sendApiRequest } from './httpTransport.js';
import type { RetryPolicy } from './retryPolicy.js';
import { runWithRetry, type RetryListener } from './runWithRetry.js';
import { changesFeed } from './changesFeed.js';
import type { BatchResult, ChangesOptions, CollectionPage, DataItem, FetchBatchOptions, FetchCollectionOptions, ItemChange, RequestOptions } from './types.js';

/** The client's read methods, each retried by the policy. */
export interface ReadMethods {
  fetchData(dataId: string, options?: RequestOptions): Promise<DataItem>;
  fetchBatch(dataIds: readonly string[], options?: FetchBatchOptions): Promise<BatchResult>;
  fetchCollection(slug: string, options?: FetchCollectionOptions): Promise<CollectionPage>;
  changes(slug: string, options?: ChangesOptions): AsyncGenerator<ItemChange, void, undefined>;
}

/** What {@link createReadMethods} sends with. */
export interface ReadMethodsDeps {
  fetch: FetchLike;
  baseUrl: string;
  apiKey: string;
  retry: RetryPolicy;
  clock: Clock;
  onRetry?: RetryListener | undefined;
}

/** `fetchData`, `fetchBatch` (split into requests of 100 ids), `fetchCollection` and `changes` over `deps.fetch`. */
export function createReadMethods(deps: ReadMethodsDeps): ReadMethods {
  const request = <T>(req: ApiRequest): Promise<T> =>
    runWithRetry(() => sendApiRequest<T>(deps.fetch, deps.baseUrl, deps.apiKey, req, deps.clock), deps.retry, deps.clock, req.signal, deps.onRetry);

  return {
    fetchData: (dataId, opts = {}) =>
      request<DataItem>({ method: 'GET', path: `/public/data/${encodeURIComponent(dataId)}`, query: { minPosition: opts.minPosition }, signal: opts.signal }),
    async fetchBatch(dataIds, opts = {}) {
      const results: BatchResult[] = [];
      // One chunk at a time: parallel chunks would only spend the key's rate limit faster.
      for (const chunk of splitIntoBatches(dataIds)) {
        const body: { dataIds: string[]; fields?: string[] } = { dataIds: chunk };
        if (opts.fields) body.fields = opts.fields;
        results.push(await request<BatchResult>({ method: 'POST', path: '/public/batch', body, query: { minPosition: opts.minPosition }, signal: opts.signal }));
      }
      return mergeBatchResults(results);
    },
    fetchCollection: (slug, opts = {}) =>
      request<CollectionPage>({
        method: 'GET',
        path: `/public/collections/${encodeURIComponent(slug)}/data`,
        query: { page: opts.page, limit: opts.limit, sort: opts.sort, order: opts.order, minPosition: opts.minPosition },
        signal: opts.signal,
      }),
    changes: (slug, opts) => changesFeed({ request, clock: deps.clock }, slug, opts),
  };
}
