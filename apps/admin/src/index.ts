export * from './adminApp.js';
export * from './adminService.js';
export * from './allowedDomains.js';
export * from './commandHandler.js';
export * from './idempotency.js';
export * from './readYourWrites.js';
export * from './usageReport.js';
export type { ImportSummary } from './importItems.js';
export { createDashboard, SESSION_COOKIE, type DashboardOptions } from './dashboard/index.js';
