import type Router from '@koa/router';
import { mountRoute } from '@pubstream/http';
import { adminContract } from '../contract/adminContract.js';
import type { AdminService } from '../adminService.js';
import type { WriteResponder } from '../writeResponder.js';
import { readBodies, setPlanBody } from './requestBodies.js';
import { ok } from './writeAnswers.js';

/** `/admin/plan` (docs/admin-api.md, Plan). */
export const planRoutes = (router: Router, deps: { service: Pick<AdminService, 'getPlan' | 'setPlan'>; respond: WriteResponder }): void => {
  mountRoute(router, adminContract('getPlan'), async (ctx) => {
    ctx.body = await deps.service.getPlan();
  });
  mountRoute(router, adminContract('setPlan'), async (ctx) => {
    const { raw, body } = await readBodies(ctx, setPlanBody);
    await deps.respond(ctx, raw, (options) => deps.service.setPlan(body, options), ok);
  });
};
