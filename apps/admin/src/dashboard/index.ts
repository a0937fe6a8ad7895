export { createDashboard, type DashboardOptions } from './dashboard.js';
export { SESSION_COOKIE } from './sessionCookie.js';
export type { DashboardContext } from './dashboardContext.js';
