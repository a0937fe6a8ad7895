import { createReadiness, type Readiness } from '@pubstream/http';
import type { AdminEventStore, AdminStores } from './adminStores.js';

/**
 * The admin's /readyz (docs/operations.md, "Readiness"): the event log (every write) and the read
 * model (read-your-writes, views, writes that decide on it) are required; `caughtUp` is not: while
 * the read model is rebuilt after losing its data, reads answer 503 but writes are still appended.
 */
export const createAdminReadiness = (deps: {
  readonly eventStore: Pick<AdminEventStore, 'headPosition'>;
  readonly stores: Pick<AdminStores, 'ping' | 'readModel'>;
  readonly drain?: { readonly draining: boolean };
  readonly timeoutMs: number;
}): Readiness =>
  createReadiness({
    drain: deps.drain,
    timeoutMs: deps.timeoutMs,
    checks: [
      { name: 'eventStore', required: true, probe: async () => void (await deps.eventStore.headPosition()) },
      { name: 'readModel', required: true, probe: () => deps.stores.ping() },
      {
        name: 'caughtUp',
        required: false,
        probe: async () => {
          if (!(await deps.stores.readModel.isCaughtUp())) throw new Error('the read model is being rebuilt');
        },
      },
    ],
  });
