import { LOOPBACK_HOST_NAMES } from '@pubstream/config';
import { apiReference, errorMiddleware, normalizePathMiddleware, requestContext, requestMetrics } from '@pubstream/http';
import type { Logger } from '@pubstream/observability';
import Koa from 'koa';
import type { Registry } from 'prom-client';
import { adminGate } from './adminGate.js';
import { createAdminReadiness } from './adminReadiness.js';
import type { AdminEventStore, AdminStores } from './adminStores.js';
import { createAdminRoutes } from './adminRoutes.js';
import { createAdminService, type AdminService } from './adminService.js';
import { allowedHosts } from './allowedHosts.js';
import { adminOpenApiDocument } from './contract/adminOpenApiDocument.js';
import { createAuthThrottle, DEFAULT_AUTH_THROTTLE, type AuthThrottleOptions } from './authThrottle.js';
import { createDashboard, type DashboardOptions } from './dashboard/index.js';
import { healthProbes } from './healthProbes.js';
import { createIdempotencyRecords } from './idempotencyRecords.js';
import { createImportResponder } from './importResponder.js';
import { metricsEndpoint } from './metricsEndpoint.js';
import { noStore } from './noStore.js';
import { createReadYourWrites, type ProjectionWaiter, type ReadYourWrites } from './readYourWrites.js';
import { createWriteResponder } from './writeResponder.js';

export interface AdminAppConfig {
  readonly adminToken: string | null;
  readonly readYourWritesTimeoutMs: number;
  /** Host names the admin port answers (ADMIN_ALLOWED_HOSTS, hostName form); `['*']`: any. Default: the loopback names. */
  readonly allowedHosts?: readonly string[];
  /** Throttling of failed authentications per client address (default: 5 a minute, blocks of 1 min doubling up to 1 h). */
  readonly authThrottle?: AuthThrottleOptions;
  /** ACCESS_LOG: one log line per request (default false). */
  readonly accessLog?: boolean;
  /** Bound of each /readyz check (default 1000 ms). */
  readonly readinessTimeoutMs?: number;
}

export interface AdminAppDeps {
  readonly eventStore: AdminEventStore;
  readonly stores: AdminStores;
  /** The in-process projector (all-in-one); without it, read-your-writes polls the checkpoint. */
  readonly projector?: ProjectionWaiter;
  readonly config: AdminAppConfig;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly newId: () => string;
  /** The projector checkpoint to poll in split mode (default `projector`). */
  readonly checkpointName?: string;
  readonly metrics?: Registry;
  /** Options of the dashboard it mounts (e.g. `secureCookie: true` behind a TLS proxy that sends no X-Forwarded-Proto). */
  readonly dashboard?: DashboardOptions;
  /** Set when the process begins to leave (SIGTERM): /readyz answers 503 at once. */
  readonly drain?: { readonly draining: boolean };
}

export interface AdminApp extends Koa {
  readonly service: AdminService;
}

/** Read-your-writes for this process: the in-process projector when there is one, else the checkpoint (docs/admin-api.md, 202). */
const readYourWritesOf = (deps: AdminAppDeps): ReadYourWrites =>
  createReadYourWrites({
    checkpoints: deps.stores.projections,
    projector: deps.projector,
    checkpointName: deps.checkpointName ?? 'projector',
    timeoutMs: deps.config.readYourWritesTimeoutMs,
    onUnconfirmed: (position, lastError) =>
      deps.logger.warn({ position, err: lastError }, 'read-your-writes: the read model has not confirmed the write in time; it is committed and answered 202'),
  });

/** The admin API's routes over the use cases, their writes answered with idempotency records and 202s. */
const adminRoutesOf = (deps: AdminAppDeps, service: AdminService, readYourWrites: ReadYourWrites) => {
  const records = createIdempotencyRecords({ commands: service.commands, logger: deps.logger });
  const respond = createWriteResponder(records);
  const respondImport = createImportResponder({ records, readYourWrites });
  return createAdminRoutes({ service, stores: deps.stores, respond, respondImport, newId: deps.newId, now: deps.now });
};

/**
 * The admin port as a Koa app: the admin HTTP API and the dashboard. Default deny behind one path
 * normalisation (docs/security.md): every path needs the bearer token except the health probes,
 * the API reference (/openapi.json, /docs) and the dashboard, whose entrance checks its session cookie. Every failure is `{error, message}`,
 * every write goes through the deciders and is awaited by read-your-writes.
 */
export const createAdminApp = (deps: AdminAppDeps): AdminApp => {
  const adminToken = deps.config.adminToken;
  if (adminToken === null || adminToken === '') throw new Error('createAdminApp needs an admin token');
  const readYourWrites = readYourWritesOf(deps);
  const service = createAdminService({ eventStore: deps.eventStore, stores: deps.stores, readYourWrites, now: deps.now, newId: deps.newId });
  const routes = adminRoutesOf(deps, service, readYourWrites);
  const throttle = createAuthThrottle(deps.config.authThrottle ?? DEFAULT_AUTH_THROTTLE);
  const readiness = createAdminReadiness({ eventStore: deps.eventStore, stores: deps.stores, drain: deps.drain, timeoutMs: deps.config.readinessTimeoutMs ?? 1_000 });

  const app = new Koa({ asyncLocalStorage: false }) as Koa & { service?: AdminService };
  app.proxy = false;
  app.silent = true;
  app.on('error', (error: unknown) => deps.logger.error({ err: error }, 'admin server error'));
  app.use(requestContext({ logger: deps.logger, accessLog: deps.config.accessLog }));
  if (deps.metrics) app.use(requestMetrics(deps.metrics));
  app.use(errorMiddleware({ logger: deps.logger, wwwAuthenticate: 'Bearer realm="pubstream-admin"' }));
  app.use(noStore);
  app.use(allowedHosts(deps.config.allowedHosts ?? LOOPBACK_HOST_NAMES));
  // One spelling of the path for the gate and every router below (case-sensitive, strict).
  app.use(normalizePathMiddleware());
  app.use(adminGate({ adminToken, throttle }));
  app.use(healthProbes(readiness));
  // /openapi.json and /docs: public like the probes (docs/decisions.md, "OpenAPI from the code").
  app.use(apiReference({ document: adminOpenApiDocument(), title: 'Pubstream admin API' }));
  // Prometheus scrapes the admin port with the admin token (docs/operations.md).
  if (deps.metrics) app.use(metricsEndpoint(deps.metrics));
  // The dashboard (`/`, `/dashboard/*`), mounted once: its entrance checks the session cookie.
  app.use(createDashboard({ service, stores: deps.stores, adminToken, logger: deps.logger, now: deps.now, throttle }, deps.dashboard));
  app.use(routes.routes);
  app.use(routes.allowedMethods);
  app.service = service;
  return app as AdminApp;
};
