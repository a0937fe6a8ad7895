import type { PageQuery, PageResult } from '@pubstream/read-model';

/** Items per page of the collection snapshots and deltas: the public default page size. */
export const STREAM_PAGE_LIMIT = 20;

/** Page 1 at the default sort (createdAt, newest first), as GET /public/collections/{slug}/data answers it. */
export const STREAM_PAGE_QUERY: PageQuery = Object.freeze({ sort: 'createdAt', order: 'desc', offset: 0, limit: STREAM_PAGE_LIMIT });

export interface CollectionPagePayload {
  readonly data: readonly { readonly dataId: string; readonly data: unknown }[];
  readonly total: number;
  readonly page: 1;
  readonly limit: number;
  readonly totalPages: number;
}

/** The collection page response shape; a missing (deleted) collection is an empty page. */
export const collectionPagePayload = (result: PageResult | null): CollectionPagePayload => {
  const total = result?.total ?? 0;
  return {
    data: (result?.items ?? []).map((item) => ({ dataId: item.dataId, data: item.data })),
    total,
    page: 1,
    limit: STREAM_PAGE_LIMIT,
    totalPages: Math.ceil(total / STREAM_PAGE_LIMIT),
  };
};

/** The JSON of a collection's `update` message: its slug and page 1 (an empty page when it is gone). */
export const collectionPageJson = (slug: string, result: PageResult | null): string =>
  JSON.stringify({ collectionSlug: slug, data: collectionPagePayload(result), action: 'update' });
