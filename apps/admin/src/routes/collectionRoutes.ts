import type Router from '@koa/router';
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
  router.get('/collections', async (ctx) => {
    ctx.body = { data: await service.listCollections() };
  });
  router.post('/collections', async (ctx) => {
    const { raw, body } = await readBodies(ctx, createCollectionBody);
    await respond(ctx, raw, (options) => service.createCollection(body, options), created);
    ctx.set('Location', `/admin/collections/${body.slug}`);
  });
  router.get('/collections/:slug', async (ctx) => {
    ctx.body = await service.getCollection(param(ctx, 'slug'));
  });
  router.patch('/collections/:slug', async (ctx) => {
    const { raw, body } = await readBodies(ctx, updateCollectionBody);
    await respond(ctx, raw, (options) => service.updateCollection(param(ctx, 'slug'), body, options), ok);
  });
  router.delete('/collections/:slug', async (ctx) => {
    await respond(ctx, {}, (options) => service.deleteCollection(param(ctx, 'slug'), options), noContent);
  });
};
