import type Router from '@koa/router';
import { mountRoute } from '@pubstream/http';
import { adminContract } from '../contract/adminContract.js';
import type { AdminService } from '../adminService.js';
import type { WriteResponder } from '../writeResponder.js';
import { createCollectionBody, param, readBodies, updateCollectionBody } from './requestBodies.js';
import { created, noContent, ok } from './writeAnswers.js';

export interface CollectionRouteDeps {
  readonly service: Pick<AdminService, 'listCollections' | 'getCollection' | 'createCollection' | 'updateCollection' | 'deleteCollection'>;
  readonly respond: WriteResponder;
}

/** `/admin/collections[/{slug}]` (docs/admin-api.md, Collections). */
export const collectionRoutes = (router: Router, deps: CollectionRouteDeps): void => {
  const { service, respond } = deps;
  mountRoute(router, adminContract('listCollections'), async (ctx) => {
    ctx.body = { data: await service.listCollections() };
  });
  mountRoute(router, adminContract('createCollection'), async (ctx) => {
    const { raw, body } = await readBodies(ctx, createCollectionBody);
    await respond(ctx, raw, (options) => service.createCollection(body, options), created);
    ctx.set('Location', `/admin/collections/${body.slug}`);
  });
  mountRoute(router, adminContract('getCollection'), async (ctx) => {
    ctx.body = await service.getCollection(param(ctx, 'slug'));
  });
  mountRoute(router, adminContract('updateCollection'), async (ctx) => {
    const { raw, body } = await readBodies(ctx, updateCollectionBody);
    await respond(ctx, raw, (options) => service.updateCollection(param(ctx, 'slug'), body, options), ok);
  });
  mountRoute(router, adminContract('deleteCollection'), async (ctx) => {
    await respond(ctx, {}, (options) => service.deleteCollection(param(ctx, 'slug'), options), noContent);
  });
};
