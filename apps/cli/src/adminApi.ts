import { createAdminApp, type AdminAppConfig, type AdminAppDeps, type AdminService } from '@pubstream/admin';
import type { Config } from '@pubstream/config';
import { edgeSettings, listen, type RunningServer } from './httpServer.js';

/** The admin app's settings from the process configuration (both profiles). */
export const adminAppConfig = (config: Config, adminToken: string): AdminAppConfig => ({
  adminToken,
  readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
  allowedHosts: config.adminAllowedHosts,
  authThrottle: { maxFailures: config.adminAuthMaxFailures, blockMs: config.adminAuthBlockMs, maxBlockMs: config.adminAuthMaxBlockMs },
  accessLog: config.accessLog,
});

/** The admin API (and its dashboard) on the configured admin host and port. */
export const serveAdminApi = async (
  config: Config,
  deps: Omit<AdminAppDeps, 'config'> & { adminToken: string },
): Promise<{ readonly service: AdminService; readonly server: RunningServer }> => {
  const { adminToken, ...appDeps } = deps;
  const app = createAdminApp({ ...appDeps, config: adminAppConfig(config, adminToken) });
  const server = await listen(app.callback(), config.adminHost, config.adminPort, edgeSettings(config, 'admin'));
  return { service: app.service, server };
};
