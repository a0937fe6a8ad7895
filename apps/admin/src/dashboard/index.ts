export { createDashboard, SESSION_COOKIE, type DashboardOptions } from './dashboard.js';
export type { DashboardContext } from './dashboardContext.js';
