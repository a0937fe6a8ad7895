import Router from '@koa/router';
import type { AdminService } from './adminService.js';
import type { ImportResponder } from './importResponder.js';
import { collectionRoutes } from './routes/collectionRoutes.js';
import { itemRoutes } from './routes/itemRoutes.js';
import { keyRoutes } from './routes/keyRoutes.js';
import { planRoutes } from './routes/planRoutes.js';
import { usageRoutes } from './routes/usageRoutes.js';
import type { UsageReportStores } from './usageReport.js';
import type { WriteResponder } from './writeResponder.js';

export interface AdminRouteDeps {
  readonly service: AdminService;
  readonly stores: UsageReportStores;
  readonly respond: WriteResponder;
  readonly respondImport: ImportResponder;
  readonly newId: () => string;
  readonly now: () => Date;
}

/** The admin HTTP API (docs/admin-api.md), one module of routes per resource; authentication is applied in front of it. */
export const createAdminRoutes = (deps: AdminRouteDeps) => {
  // Case-sensitive and strict: the path was normalised once, and the auth gate judged that same spelling.
  // Routes are mounted at the full paths of their contracts (contract/adminContract.ts).
  const router = new Router({ sensitive: true, strict: true });
  collectionRoutes(router, deps);
  itemRoutes(router, deps);
  keyRoutes(router, deps);
  planRoutes(router, deps);
  usageRoutes(router, deps);
  return { router, routes: router.routes(), allowedMethods: router.allowedMethods() };
};
