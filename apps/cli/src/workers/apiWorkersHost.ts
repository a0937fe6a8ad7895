import { createMemoryRateLimiter, createMemoryStreamSlotStore } from '@pubstream/access';
import type { PublicApiHost, PublicApiHostStarter } from '../publicApiHost.js';
import { createAllWorkersWaiter } from './allWorkersWaiter.js';
import type { ApiWorkerPool } from './apiWorkers.js';
import { createConnectionCounts } from './ipcConnectionGate.js';
import { rateLimiterHandlers } from './ipcRateLimiter.js';
import { workerStreamSlots } from './ipcStreamSlots.js';
import { usageHandlers } from './ipcUsageStore.js';
import { createIpcClient, serveIpc, type IpcClient } from './workerIpc.js';
import { WORKER_CALL_TIMEOUT_MS } from './workerMessages.js';

/**
 * The all-in-one's public API in the workers of `pool` (forked ahead, docs/architecture.md, "API workers"). This process
 * stays the one writer (log, admin, its projector). `followLog`: it holds what must be exact across
 * workers (one rate limiter, one store of stream slots, the per-address connection counts, the usage counts) and an admin write
 * answers once every worker applied it. `shared`: the workers read Redis, which this process's
 * projector writes, and take limits and slots in Redis; nothing goes over IPC.
 */
export const apiWorkersHost =
  (pool: ApiWorkerPool, count: number, mode: 'followLog' | 'shared'): PublicApiHostStarter =>
  async ({ config, core, now, cleanups }): Promise<PublicApiHost> => {
    const drain = () => pool.stop(config.shutdownTimeoutMs);
    cleanups.push(drain);
    if (mode === 'shared') {
      const workers = await pool.open(() => () => {});
      return { workers: count, waitFor: (position, timeoutMs) => core.projector.waitFor(position, timeoutMs), listen: () => workers.listen(), drain };
    }
    const limiter = rateLimiterHandlers(createMemoryRateLimiter({ window: config.rateLimitWindow, now }));
    const usage = usageHandlers(core.stores.usage);
    const slotStore = createMemoryStreamSlotStore();
    const connections = createConnectionCounts(config.maxConnectionsPerAddress);
    // Every forked worker, from its fork on: admin writes wait for workers still starting too.
    const clients = new Map<number, IpcClient>();
    const waiter = createAllWorkersWaiter(core.projector, () => [...clients.values()]);
    const workers = await pool.open(({ id, channel }) => {
      const slots = workerStreamSlots(slotStore, `worker-${id}`);
      const held = connections.forWorker();
      const stopServing = serveIpc(channel, { ...limiter, ...usage, ...slots.handlers, ...held.handlers });
      clients.set(id, createIpcClient(channel, { timeoutMs: WORKER_CALL_TIMEOUT_MS }));
      return () => {
        clients.get(id)?.close();
        clients.delete(id);
        stopServing();
        slots.forget();
        held.forget();
      };
    });
    return { workers: count, waitFor: waiter.waitFor, listen: () => workers.listen(), drain };
  };

