export { createDashboard, SESSION_COOKIE, type DashboardOptions } from './dashboard.js';
