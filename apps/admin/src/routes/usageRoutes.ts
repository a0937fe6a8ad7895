import type Router from '@koa/router';
import { adminContract } from '../contract/adminContract.js';
import { mountRoute, parseWith } from '@pubstream/http';
import { usageQuery } from './usageQuery.js';
import { defaultUsageFrom, usageReport, type UsageReportStores } from '../usageReport.js';

/** `/admin/usage` (docs/admin-api.md, Usage): the default range of a granularity ends now. */
export const usageRoutes = (router: Router, deps: { stores: UsageReportStores; now: () => Date }): void => {
  mountRoute(router, adminContract('usage'), async (ctx) => {
    const query = parseWith(usageQuery, ctx.query);
    const to = query.to ?? deps.now();
    const { granularity } = query;
    ctx.body = await usageReport(deps.stores, { granularity, to, from: query.from ?? defaultUsageFrom(granularity, to), keyId: query.keyId });
  });
};
