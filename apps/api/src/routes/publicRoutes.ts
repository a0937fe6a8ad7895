import type Router from '@koa/router';
import { isValidDataId, isValidSlug, NotFoundError, ValidationError } from '@pubstream/domain';
import { echoInput, readJsonBody } from '@pubstream/http';
import type { ChangeHistory, ReadModel } from '@pubstream/read-model';
import { backendCall } from '../http/backendCall.js';
import { readBatchWithPosition } from '../positions/batchPosition.js';
import type { MinPositionGate } from '../positions/minPosition.js';
import type { PublicAccess } from '../publicAccess.js';
import { parseBatchRequest } from './batchRequest.js';
import { BUILT_IN_SORT_FIELDS, parseCollectionQuery } from './collectionQuery.js';
import { keyedRoute } from './keyedRoute.js';
import { changesRoute } from './changesRoute.js';
import { batchReply, itemReply, itemStamp, pageCacheEntry, pageReply } from './publicReplies.js';
import { createReplyCache } from './replyCache.js';

export interface PublicRoutesDeps {
  readonly readModel: ReadModel;
  readonly history: Pick<ChangeHistory, 'collectionChanges'>;
  readonly access: PublicAccess;
  /** `?minPosition=` on every read (docs/public-api.md). */
  readonly minPosition: MinPositionGate;
}

/** The three read routes of the specification (Endpoints 1-3) and the changes feed, each with `X-Position`. */
export const publicRoutes = (router: Router, deps: PublicRoutesDeps): void => {
  const { readModel, access, minPosition } = deps;
  // Hot items and pages are read far more often than they change: serialize and hash once per version.
  const itemReplies = createReplyCache({ maxChars: 32 * 2 ** 20 });
  const pageReplies = createReplyCache({ maxChars: 32 * 2 ** 20 });

  router.get(
    '/public/data/:dataId',
    keyedRoute(access, async (ctx) => {
      const dataId = ctx.params.dataId ?? '';
      if (!isValidDataId(dataId)) throw new ValidationError('Invalid dataId format');
      await minPosition.awaitQuery(ctx.query);
      const item = await backendCall(readModel.getItem(dataId));
      if (item === null) {
        await access.confirmMiss();
        throw new NotFoundError('Data not found');
      }
      // The record carries the position of its version: read with it, atomically.
      return { ...itemReplies.get(item.dataId, itemStamp(item), () => itemReply(item)), position: item.position };
    }),
  );

  router.post(
    '/public/batch',
    keyedRoute(access, async (ctx) => {
      const request = parseBatchRequest(await readJsonBody(ctx));
      await minPosition.awaitQuery(ctx.query);
      const { items, position } = await backendCall(readBatchWithPosition(readModel, request.dataIds));
      // `notFound` says "does not exist": only a caught-up read model may say it.
      if (items.includes(null)) await access.confirmMiss();
      return { ...batchReply(request, items), position };
    }),
  );

  router.get(
    '/public/collections/:slug/data',
    keyedRoute(access, async (ctx) => {
      const slug = ctx.params.slug ?? '';
      const notFound = () => new NotFoundError(`Collection not found: ${echoInput(slug)}`);
      // Checked before the collection is known, so a bad page is 400 even for an unknown slug.
      parseCollectionQuery({ ...ctx.query, sort: undefined }, BUILT_IN_SORT_FIELDS);
      if (!isValidSlug(slug)) throw notFound();
      // Null only when a caught-up read model said so (else 503): the miss is confirmed.
      const collection = await access.getCollection(slug);
      if (collection === null) throw notFound();
      const allowed = [...BUILT_IN_SORT_FIELDS, ...collection.sortableFields.map((field) => field.name)];
      const query = parseCollectionQuery(ctx.query, allowed);
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
      return { ...pageReplies.get(name, stamp, () => pageReply(slug, query, result)), position: result.position };
    }),
  );

  changesRoute(router, deps);
};
