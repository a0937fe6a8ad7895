import type Router from '@koa/router';
import { dataIdSchema, NotFoundError, slugSchema, ValidationError } from '@pubstream/domain';
import { echoInput, mountRoute, readJsonBody } from '@pubstream/http';
import type { ReadModel } from '@pubstream/read-model';
import { backendCall } from '../http/backendCall.js';
import type { PublicAccess } from '../publicAccess.js';
import { parseBatchRequest } from './batchRequest.js';
import { BUILT_IN_SORT_FIELDS, checkedSort, parseCollectionQuery } from './collectionQuery.js';
import { keyedRoute } from './keyedRoute.js';
import { publicContracts } from './publicContract.js';
import { batchReply, itemReply, itemStamp, pageCacheEntry, pageReply } from './publicReplies.js';
import { createReplyCache } from './replyCache.js';

/** The three read routes of the specification (Endpoints 1-3), where their contracts (publicContract.ts) say. */
export const publicRoutes = (router: Router, deps: { readModel: ReadModel; access: PublicAccess }): void => {
  const { readModel, access } = deps;
  // Hot items and pages are read far more often than they change: serialize and hash once per version.
  const itemReplies = createReplyCache({ maxChars: 32 * 2 ** 20 });
  const pageReplies = createReplyCache({ maxChars: 32 * 2 ** 20 });

  mountRoute(
    router,
    publicContracts.item,
    keyedRoute(access, async (ctx) => {
      const dataId = ctx.params.dataId ?? '';
      if (!dataIdSchema.safeParse(dataId).success) throw new ValidationError('Invalid dataId format');
      const item = await backendCall(readModel.getItem(dataId));
      if (item === null) {
        await access.confirmMiss();
        throw new NotFoundError('Data not found');
      }
      return itemReplies.get(item.dataId, itemStamp(item), () => itemReply(item));
    }),
  );

  mountRoute(
    router,
    publicContracts.batch,
    keyedRoute(access, async (ctx) => {
      const request = parseBatchRequest(await readJsonBody(ctx));
      const items = await backendCall(readModel.getItems(request.dataIds));
      // `notFound` says "does not exist": only a caught-up read model may say it.
      if (items.includes(null)) await access.confirmMiss();
      return batchReply(request, items);
    }),
  );

  mountRoute(
    router,
    publicContracts.collectionPage,
    keyedRoute(access, async (ctx) => {
      const slug = ctx.params.slug ?? '';
      const notFound = () => new NotFoundError(`Collection not found: ${echoInput(slug)}`);
      // Checked before the collection is known, so a bad page is 400 even for an unknown slug.
      const parsed = parseCollectionQuery({ ...ctx.query, sort: undefined }, BUILT_IN_SORT_FIELDS);
      if (!slugSchema.safeParse(slug).success) throw notFound();
      // Null only when a caught-up read model said so (else 503): the miss is confirmed.
      const collection = await access.getCollection(slug);
      if (collection === null) throw notFound();
      const allowed = [...BUILT_IN_SORT_FIELDS, ...collection.sortableFields.map((field) => field.name)];
      // Parsed once: only the sort waits for the collection's own fields.
      const query = { ...parsed, sort: checkedSort(ctx.query.sort, allowed) };
      const result = await backendCall(
        readModel.getCollectionPage(slug, { sort: query.sort, order: query.order, offset: (query.page - 1) * query.limit, limit: query.limit }),
      );
      if (result === null) {
        await access.confirmMiss();
        throw notFound();
      }
      const { name, stamp } = pageCacheEntry(slug, query, result);
      return pageReplies.get(name, stamp, () => pageReply(slug, query, result));
    }),
  );
};
