import { createAdminApp, type AdminAppConfig, type AdminAppDeps, type AdminService } from '@pubstream/admin';
import type { Config } from '@pubstream/config';
import { createDrainSignal } from '@pubstream/http';
import { caughtUpKeyReads, caughtUpReadModel, createMissConfirmation } from '@pubstream/read-model';
import { edgeSettings, listen, type RunningServer } from './httpServer.js';

/** The admin app's settings from the process configuration (both profiles). */
export const adminAppConfig = (config: Config, adminToken: string): AdminAppConfig => ({
  adminToken,
  readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
  allowedHosts: config.adminAllowedHosts,
  authThrottle: { maxFailures: config.adminAuthMaxFailures, blockMs: config.adminAuthBlockMs, maxBlockMs: config.adminAuthMaxBlockMs },
  accessLog: config.accessLog,
  readinessTimeoutMs: config.redisCommandTimeoutMs,
});

/**
 * The admin's view of the stores: every read of the read model and of the keys answers only from a
 * caught-up read model, else 503 (docs/read-models.md, "Unknown is not missing"): an operator
 * never sees an empty list or "not found" from a Redis that lost its data and is being rebuilt,
 * and no write decides on one. Like read-your-writes, it waits (READ_YOUR_WRITES_TIMEOUT_MS) for a
 * projector that is catching up before it answers 503.
 */
const caughtUpAdminStores = (stores: AdminAppDeps['stores'], waitMs: number): AdminAppDeps['stores'] => {
  const gate = createMissConfirmation(() => stores.readModel.isCaughtUp(), { waitMs });
  return { ...stores, readModel: caughtUpReadModel(stores.readModel, gate), keys: caughtUpKeyReads(stores.keys, gate), ping: () => stores.ping() };
};

/**
 * The admin API (and its dashboard) on the configured admin host and port. Closing the server
 * drains it (RunningServer.close): /readyz 503 at once, connections closed after their response.
 */
export const serveAdminApi = async (
  config: Config,
  deps: Omit<AdminAppDeps, 'config' | 'drain'> & { adminToken: string },
): Promise<{ readonly service: AdminService; readonly server: RunningServer }> => {
  const { adminToken, ...appDeps } = deps;
  const drain = createDrainSignal();
  const app = createAdminApp({ ...appDeps, stores: caughtUpAdminStores(appDeps.stores, config.readYourWritesTimeoutMs), drain, config: adminAppConfig(config, adminToken) });
  const server = await listen(app.callback(), config.adminHost, config.adminPort, edgeSettings(config, 'admin'), drain);
  return { service: app.service, server };
};
