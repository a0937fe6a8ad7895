import type Router from '@koa/router';
import { mountRoute } from '@pubstream/http';
import { adminContract } from '../contract/adminContract.js';
import type { AdminService } from '../adminService.js';
import type { WriteResponder } from '../writeResponder.js';
import { createKeyBody, param, readBodies, updateKeyBody } from './requestBodies.js';
import { keyCreated, noContent, ok } from './writeAnswers.js';

export interface KeyRouteDeps {
  readonly service: Pick<AdminService, 'listKeys' | 'getKey' | 'createKey' | 'updateKey' | 'deleteKey'>;
  readonly respond: WriteResponder;
}

/** `/admin/keys[/{keyId}]` (docs/admin-api.md, API keys). */
export const keyRoutes = (router: Router, deps: KeyRouteDeps): void => {
  const { service, respond } = deps;
  mountRoute(router, adminContract('listKeys'), async (ctx) => {
    ctx.body = { data: await service.listKeys() };
  });
  mountRoute(router, adminContract('createKey'), async (ctx) => {
    const { raw, body } = await readBodies(ctx, createKeyBody);
    // The full key is in this answer: no cache may keep it.
    ctx.set('Cache-Control', 'no-store');
    await respond(ctx, raw, (options) => service.createKey(body, options), keyCreated);
  });
  mountRoute(router, adminContract('getKey'), async (ctx) => {
    ctx.body = await service.getKey(param(ctx, 'keyId'));
  });
  mountRoute(router, adminContract('updateKey'), async (ctx) => {
    const { raw, body } = await readBodies(ctx, updateKeyBody);
    await respond(ctx, raw, (options) => service.updateKey(param(ctx, 'keyId'), body, options), ok);
  });
  mountRoute(router, adminContract('deleteKey'), async (ctx) => {
    await respond(ctx, {}, (options) => service.deleteKey(param(ctx, 'keyId'), options), noContent);
  });
};
