import { NotFoundError, ServiceUnavailableError } from '@pubstream/domain';
import type { EventStore } from '@pubstream/event-store';
import { createHttpMetrics, type Logger } from '@pubstream/observability';
import type { ReadModel } from '@pubstream/read-model';
import Koa, { type Middleware } from 'koa';
import type { Registry } from 'prom-client';
import { createAdminRoutes } from './adminRoutes.js';
import { createAdminService, type AdminService } from './adminService.js';
import { bearerAuth } from './bearerAuth.js';
import { createDashboard } from './dashboard/index.js';
import { errorMiddleware } from './errorMiddleware.js';
import { createReadYourWrites, type ProjectionWaiter } from './readYourWrites.js';
import { createIdempotencyRecords } from './idempotencyRecords.js';
import { createImportResponder } from './importResponder.js';
import { createWriteResponder } from './writeResponder.js';

export interface AdminAppConfig {
  readonly adminToken: string | null;
  readonly readYourWritesTimeoutMs: number;
}

/** What a web page mounted on the admin port (the dashboard) gets to work with. */
export interface AdminExtensionContext {
  readonly service: AdminService;
  readonly readModel: ReadModel;
  readonly adminToken: string;
  readonly logger: Logger;
  readonly now: () => Date;
}

export interface AdminAppDeps {
  readonly eventStore: EventStore;
  readonly readModel: ReadModel;
  /** The in-process projector (all-in-one); without it, read-your-writes polls the checkpoint. */
  readonly projector?: ProjectionWaiter;
  readonly config: AdminAppConfig;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly newId: () => string;
  /** The projector checkpoint to poll in split mode (default `projector`). */
  readonly checkpointName?: string;
  readonly metrics?: Registry;
  /** Extra routes outside `/admin/*` (the dashboard), each responsible for its own sign-in. */
  readonly extensions?: readonly ((context: AdminExtensionContext) => Middleware)[];
}

export interface AdminApp extends Koa {
  readonly service: AdminService;
}

/**
 * The admin HTTP API (DESIGN.md §7) as a Koa app: `/admin/*` behind the bearer token, every
 * failure as `{error, message}`, every write through the deciders and awaited by read-your-writes.
 */
export const createAdminApp = (deps: AdminAppDeps): AdminApp => {
  const adminToken = deps.config.adminToken;
  if (adminToken === null || adminToken === '') throw new Error('createAdminApp needs an admin token');
  const readYourWrites = createReadYourWrites({
    readModel: deps.readModel,
    projector: deps.projector,
    checkpointName: deps.checkpointName ?? 'projector',
    timeoutMs: deps.config.readYourWritesTimeoutMs,
    onUnconfirmed: (position, lastError) =>
      deps.logger.warn({ position, err: lastError }, 'read-your-writes: the read model has not confirmed the write in time; it is committed and answered 202'),
  });
  const service = createAdminService({ eventStore: deps.eventStore, readModel: deps.readModel, readYourWrites, now: deps.now, newId: deps.newId });
  const records = createIdempotencyRecords({ commands: service.commands, logger: deps.logger });
  const routes = createAdminRoutes({
    service,
    readModel: deps.readModel,
    respond: createWriteResponder(records),
    respondImport: createImportResponder({ records, readYourWrites }),
    newId: deps.newId,
    now: deps.now,
  });
  const http = deps.metrics ? createHttpMetrics(deps.metrics) : null;

  const app = new Koa({ asyncLocalStorage: false }) as Koa & { service?: AdminService };
  app.proxy = false;
  app.silent = true;
  app.on('error', (error: unknown) => deps.logger.error({ err: error }, 'admin server error'));

  app.use(errorMiddleware(deps.logger));
  if (http) {
    app.use(async (ctx, next) => {
      const end = http.duration.startTimer();
      try {
        await next();
      } finally {
        const labels = { method: ctx.method, route: (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched', status: String(ctx.status) };
        http.requests.inc(labels);
        end(labels);
      }
    });
  }
  app.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  if (deps.metrics) {
    const registry = deps.metrics;
    // Prometheus scrapes the admin port too (it listens on loopback by default).
    app.use(async (ctx, next) => {
      if (ctx.path !== '/metrics' || ctx.method !== 'GET') return next();
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    });
  }
  // Liveness and readiness for process managers and load balancers (no token, no data).
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || (ctx.path !== '/healthz' && ctx.path !== '/readyz')) return next();
    if (ctx.path === '/readyz') {
      try {
        await deps.readModel.ping();
      } catch (error) {
        throw new ServiceUnavailableError('The read model is not reachable', { cause: error });
      }
    }
    ctx.body = { status: 'ok' };
  });
  const auth = bearerAuth(adminToken);
  app.use(async (ctx, next) => (ctx.path === '/admin' || ctx.path.startsWith('/admin/') ? auth(ctx, next) : next()));
  // Unknown routes: checked on the way out, after the router's 405 check has had its turn.
  app.use(async (ctx, next) => {
    await next();
    if ((ctx.body === undefined || ctx.body === null) && ctx.status === 404) throw new NotFoundError(`Route ${ctx.method} ${ctx.path} not found`);
  });
  app.use(routes.routes);
  app.use(routes.allowedMethods);
  // The dashboard (`/`, `/dashboard/*`) is always served; it has its own sign-in and sessions.
  for (const extension of [createDashboard, ...(deps.extensions ?? [])]) app.use(extension({ service, readModel: deps.readModel, adminToken, logger: deps.logger, now: deps.now }));
  app.service = service;
  return app as AdminApp;
};
