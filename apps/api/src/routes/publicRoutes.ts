import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { dataIdSchema, NotFoundError, slugSchema, ValidationError } from '@pubstream/domain';
import { mountRoute, readJsonBody } from '@pubstream/http';
import type { ChangeHistory, ReadModel } from '@pubstream/read-model';
import { backendCall } from '../http/backendCall.js';
import type { KeyedRouteName } from '../http/keyedRouteMatch.js';
import type { ReplyEdge } from '../http/replyEdge.js';
import { readBatchWithPosition } from '../positions/batchPosition.js';
import type { MinPositionGate } from '../positions/minPosition.js';
import type { PublicAccess } from '../publicAccess.js';
import { parseBatchRequest } from './batchRequest.js';
import { BUILT_IN_SORT_FIELDS, checkedSort, parseCollectionQuery } from './collectionQuery.js';
import { keyedRoute } from './keyedRoute.js';
import { changesRoute } from './changesRoute.js';
import { publicContracts } from './publicContract.js';
import { batchReply, itemReply, itemStamp, pageCacheEntry, pageReply } from './publicReplies.js';
import { createReplyCache } from './replyCache.js';

export interface PublicRoutesDeps {
  readonly readModel: ReadModel;
  readonly history: Pick<ChangeHistory, 'collectionChanges'>;
  readonly access: PublicAccess;
  /** Caching headers, 304s and compression of every answer. */
  readonly edge: ReplyEdge;
  /** `?minPosition=` on every read (docs/public-api.md). */
  readonly minPosition: MinPositionGate;
}

/**
 * The three read routes of the specification (Endpoints 1-3) and the changes feed, each where its
 * contract (publicContract.ts) says, each with `X-Position`. Returns the three keyed handlers it
 * mounted, for the hot path (http/keyedFastPath.ts).
 */
export const publicRoutes = (router: Router, deps: PublicRoutesDeps): Record<KeyedRouteName, Middleware> => {
  const { readModel, access, edge, minPosition } = deps;
  // Hot items and pages are read far more often than they change: serialize and hash once per version.
  const itemReplies = createReplyCache({ maxChars: 32 * 2 ** 20 });
  const pageReplies = createReplyCache({ maxChars: 32 * 2 ** 20 });

  const itemRoute = keyedRoute(access, edge, async (ctx) => {
    const dataId = ctx.params.dataId ?? '';
    if (!dataIdSchema.safeParse(dataId).success) throw new ValidationError('Invalid dataId format');
    await minPosition.awaitQuery(ctx.query);
    const item = await backendCall(readModel.getItem(dataId));
    if (item === null) {
      await access.confirmMiss();
      throw new NotFoundError('Data not found');
    }
    // The record carries the position of its version: read with it, atomically.
    return { reply: itemReplies.get(item.dataId, itemStamp(item), () => itemReply(item)), position: item.position };
  });
  mountRoute(router, publicContracts.item, itemRoute);

  const batchRoute = keyedRoute(access, edge, async (ctx) => {
    const request = parseBatchRequest(await readJsonBody(ctx));
    await minPosition.awaitQuery(ctx.query);
    const { items, position } = await backendCall(readBatchWithPosition(readModel, request.dataIds));
    // `notFound` says "does not exist": only a caught-up read model may say it.
    if (items.includes(null)) await access.confirmMiss();
    return { reply: batchReply(request, items), position };
  });
  mountRoute(router, publicContracts.batch, batchRoute);

  const pageRoute = keyedRoute(access, edge, async (ctx) => {
    const slug = ctx.params.slug ?? '';
    // The specification's 404 text (its Errors table: `Data not found`), as for an item: a client
    // written against it matches one message; the slug is in the URL it asked for.
    const notFound = () => new NotFoundError('Data not found');
    // Checked before the collection is known, so a bad page is 400 even for an unknown slug.
    const parsed = parseCollectionQuery({ ...ctx.query, sort: undefined }, BUILT_IN_SORT_FIELDS);
    if (!slugSchema.safeParse(slug).success) throw notFound();
    // Null only when a caught-up read model said so (else 503): the miss is confirmed.
    const collection = await access.getCollection(slug);
    if (collection === null) throw notFound();
    const allowed = [...BUILT_IN_SORT_FIELDS, ...collection.sortableFields.map((field) => field.name)];
    // Parsed once: only the sort waits for the collection's own fields.
    const query = { ...parsed, sort: checkedSort(ctx.query.sort, allowed) };
    await minPosition.awaitQuery(ctx.query);
    const result = await backendCall(
      readModel.getCollectionPage(slug, { sort: query.sort, order: query.order, offset: (query.page - 1) * query.limit, limit: query.limit }),
    );
    if (result === null) {
      await access.confirmMiss();
      throw notFound();
    }
    const { name, stamp } = pageCacheEntry(slug, query, result);
    // The cached body is keyed by the items' versions; the position is the collection's lastChange,
    // read in the same script as the page.
    return { reply: pageReplies.get(name, stamp, () => pageReply(slug, query, result)), position: result.position };
  });
  mountRoute(router, publicContracts.collectionPage, pageRoute);

  changesRoute(router, deps);
  return { item: itemRoute, batch: batchRoute, collectionPage: pageRoute };
};
