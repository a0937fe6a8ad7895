// The admin app's public surface: the factory the CLI composes, its config and deps, and the use
// cases it exposes (seed data, tests). Everything else is internal to apps/admin.
export { createAdminApp, type AdminApp, type AdminAppConfig, type AdminAppDeps } from './adminApp.js';
export type { AdminService, CollectionView, ItemView, KeyView, PlanView, WriteOptions, Written } from './adminService.js';
export type { AdminEventStore, AdminStores } from './adminStores.js';
export type { DashboardOptions } from './dashboard/index.js';
export type { ProjectionWaiter } from './readYourWrites.js';
export { adminOpenApiDocument } from './contract/adminOpenApiDocument.js';
export { adminContracts, adminRouteContracts } from './contract/adminContract.js';
