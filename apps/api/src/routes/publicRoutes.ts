import type Router from '@koa/router';
import { isValidDataId, isValidSlug, NotFoundError, ValidationError } from '@pubstream/domain';
import { echoInput, readJsonBody } from '@pubstream/http';
import type { ReadModel } from '@pubstream/read-model';
import { backendCall } from '../http/backendCall.js';
import { weakEtag } from '../http/etag.js';
import type { PublicAccess } from '../publicAccess.js';
import { parseBatchRequest, pickFields } from './batchRequest.js';
import { BUILT_IN_SORT_FIELDS, parseCollectionQuery } from './collectionQuery.js';
import { keyedRoute } from './keyedRoute.js';
import { createReplyCache } from './replyCache.js';

/** The three read routes of the specification (Endpoints 1-3). */
export const publicRoutes = (router: Router, deps: { readModel: ReadModel; access: PublicAccess }): void => {
  const { readModel, access } = deps;
  // Hot items and pages are read far more often than they change: serialize and hash once per version.
  const itemReplies = createReplyCache({ maxChars: 32 * 2 ** 20 });
  const pageReplies = createReplyCache({ maxChars: 32 * 2 ** 20 });

  router.get(
    '/public/data/:dataId',
    keyedRoute(access, async (ctx) => {
      const dataId = ctx.params.dataId ?? '';
      if (!isValidDataId(dataId)) throw new ValidationError('Invalid dataId format');
      const item = await backendCall(readModel.getItem(dataId));
      if (item === null) throw new NotFoundError('Data not found');
      // The internal id changes when a deleted dataId is created again, whose version may repeat.
      return itemReplies.get(item.dataId, `${item.id}@${item.version}`, () => {
        const { id, collectionId, data, createdAt, updatedAt } = item;
        return {
          body: JSON.stringify({ id, dataId: item.dataId, collectionId, data, createdAt, updatedAt }),
          etag: weakEtag(['item', item.dataId, item.version]),
        };
      });
    }),
  );

  router.post(
    '/public/batch',
    keyedRoute(access, async (ctx) => {
      const request = parseBatchRequest(await readJsonBody(ctx));
      const items = await backendCall(readModel.getItems(request.dataIds));
      const data: { dataId: string; data: Readonly<Record<string, unknown>> }[] = [];
      const notFound: string[] = [];
      request.dataIds.forEach((dataId, index) => {
        const item = items[index];
        if (item) data.push({ dataId, data: pickFields(item.data, request.fields) });
        else notFound.push(dataId);
      });
      return { body: JSON.stringify({ data, found: data.length, notFound }), etag: null };
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
      const collection = await access.getCollection(slug);
      if (collection === null) throw notFound();
      const allowed = [...BUILT_IN_SORT_FIELDS, ...collection.sortableFields.map((field) => field.name)];
      const query = parseCollectionQuery(ctx.query, allowed);
      const result = await backendCall(
        readModel.getCollectionPage(slug, { sort: query.sort, order: query.order, offset: (query.page - 1) * query.limit, limit: query.limit }),
      );
      if (result === null) throw notFound();
      const versions = result.items.map((item) => `${item.id}@${item.version}`);
      const name = `${slug}\u0000${query.sort}\u0000${query.order}\u0000${query.page}\u0000${query.limit}`;
      return pageReplies.get(name, `${result.total}\u0000${versions.join('\u0000')}`, () => {
        const body = {
          data: result.items.map((item) => ({ dataId: item.dataId, data: item.data })),
          total: result.total,
          page: query.page,
          limit: query.limit,
          totalPages: Math.ceil(result.total / query.limit),
        };
        const tagged = result.items.map((item) => `${item.dataId}@${item.version}`);
        return {
          body: JSON.stringify(body),
          etag: weakEtag(['page', slug, query.sort, query.order, query.page, query.limit, result.total, ...tagged]),
        };
      });
    }),
  );
};
