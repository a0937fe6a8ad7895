import { createMetricsRegistry } from '@pubstream/observability';
import { registerProjectorMetrics } from '@pubstream/projector';
import { openRateLimiter, openStreamSlots } from './adapters.js';
import type { PublicApiHost, PublicApiHostDeps } from './publicApiHost.js';
import { createPublicApi, servePublicApi } from './publicApi.js';

/** The public API inside the all-in-one's own process (API_WORKERS=1): one process, as before workers. */
export const serveInProcessPublicApi = async ({ config, core, logger, now, backendErrors, cleanups }: PublicApiHostDeps): Promise<PublicApiHost> => {
  const metrics = createMetricsRegistry({ app: 'api', collectDefaults: false });
  // The projector runs in this process: its lag is on the API's /metrics (docs/operations.md, "Metrics").
  registerProjectorMetrics(metrics, { eventStore: core.eventStore, checkpoints: core.stores.projections, snapshot: core.projector.snapshot, now });
  const publicApi = await createPublicApi({
    config,
    stores: core.stores,
    changeStream: core.changeStream,
    logger: logger.child({ component: 'api' }),
    now,
    metrics,
    backendErrors,
    // In front of the in-memory stores a cache only adds staleness.
    cacheTtlMs: core.redis === null ? 0 : undefined,
    rateLimiter: openRateLimiter(config, core.redis, now, logger, backendErrors),
    streamSlots: openStreamSlots(core.redis),
    // Read-your-writes waits on the projector of this process (docs/public-api.md, minPosition).
    positionWaiter: { reached: (position, timeoutMs) => core.projector.waitFor(position, timeoutMs), close: () => {} },
  });
  cleanups.push(() => publicApi.close());
  let server: Awaited<ReturnType<typeof servePublicApi>> | null = null;
  return {
    workers: 1,
    waitFor: (position, timeoutMs) => core.projector.waitFor(position, timeoutMs),
    async listen() {
      const serving = (server = await servePublicApi(publicApi, config));
      cleanups.push(() => serving.stop());
      return serving.url;
    },
    drain: async () => server?.stop(),
  };
};
