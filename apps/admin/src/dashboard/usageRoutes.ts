import type Router from '@koa/router';
import type { AdminService } from '../adminService.js';
import { usageReport, type UsageQuery, type UsageReportStores } from '../usageReport.js';
import { renderPage } from './dashboardResponses.js';
import { usagePage } from './usagePage.js';

export interface UsagePageDeps {
  readonly service: Pick<AdminService, 'listKeys'>;
  /** The keys and their counts, for the charts. */
  readonly stores: UsageReportStores;
  readonly now: () => Date;
}

/**
 * The three windows of the usage page at `to`: the last 24 hours by hour and the last 30 days by
 * day (for one key when one is chosen), and the last 12 calendar months by month for every key
 * (the monthly table of live keys). Pure.
 */
export const usageWindows = (to: Date, keyId: string | undefined): { hourly: UsageQuery; daily: UsageQuery; monthly: UsageQuery } => ({
  hourly: { granularity: 'hour', from: new Date(to.getTime() - 23 * 3_600_000), to, keyId },
  daily: { granularity: 'day', from: new Date(to.getTime() - 29 * 86_400_000), to, keyId },
  monthly: { granularity: 'month', from: new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 11, 1)), to },
});

/** The usage page, `/dashboard/usage[?key=keyId]`: an unknown key shows every key. */
export const usageRoutes = (router: Router, deps: UsagePageDeps): void => {
  router.get('/dashboard/usage', async (ctx) => {
    const to = deps.now();
    const requested = typeof ctx.query.key === 'string' && ctx.query.key !== '' ? ctx.query.key : null;
    const allKeys = await deps.service.listKeys();
    const selectedKeyId = requested !== null && allKeys.some((key) => key.keyId === requested) ? requested : null;
    const windows = usageWindows(to, selectedKeyId ?? undefined);
    const [hourly, daily, monthly] = await Promise.all([usageReport(deps.stores, windows.hourly), usageReport(deps.stores, windows.daily), usageReport(deps.stores, windows.monthly)]);
    const keys = allKeys.map(({ keyId, name, type }) => ({ keyId, name, type }));
    renderPage(ctx, 200, 'Usage', usagePage({ hourly: hourly.keys, daily: daily.keys, monthly: monthly.keys, allKeys: keys, selectedKeyId }), 'usage');
  });
};
