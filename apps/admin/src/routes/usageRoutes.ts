import type Router from '@koa/router';
import { parseWith } from '@pubstream/http';
import { z } from 'zod';
import { defaultUsageFrom, usageReport, type UsageReportStores } from '../usageReport.js';

const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).transform((value) => new Date(value));
const usageQuery = z.object({
  granularity: z.enum(['hour', 'day', 'month'], { error: 'granularity must be hour, day or month' }).default('day'),
  from: isoDate.optional(),
  to: isoDate.optional(),
  keyId: z.string().min(1).optional(),
});

/** `/admin/usage` (docs/admin-api.md, Usage): the default range of a granularity ends now. */
export const usageRoutes = (router: Router, deps: { stores: UsageReportStores; now: () => Date }): void => {
  router.get('/usage', async (ctx) => {
    const query = parseWith(usageQuery, ctx.query);
    const to = query.to ?? deps.now();
    const { granularity } = query;
    ctx.body = await usageReport(deps.stores, { granularity, to, from: query.from ?? defaultUsageFrom(granularity, to), keyId: query.keyId });
  });
};
