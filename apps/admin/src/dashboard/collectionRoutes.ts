import type Router from '@koa/router';
import type { AdminService } from '../adminService.js';
import { collectionsPage } from './collectionsPage.js';
import { renderPage } from './dashboardResponses.js';

/** The read-only collections overview. */
export const collectionRoutes = (router: Router, deps: { service: Pick<AdminService, 'listCollections'> }): void => {
  router.get('/dashboard/collections', async (ctx) => {
    renderPage(ctx, 200, 'Collections', collectionsPage(await deps.service.listCollections()), 'collections');
  });
};
