export { createDashboard, type DashboardOptions } from './dashboard.js';
export type { DashboardContext, DashboardService } from './dashboardContext.js';
