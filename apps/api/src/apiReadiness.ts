import { createReadiness, type Readiness } from '@pubstream/http';
import type { ReadModel } from '@pubstream/read-model';

/** What an API node's /readyz asks (docs/operations.md, "Readiness"). */
export interface ApiReadinessDeps {
  /** The read model's backend answers (bounded: a frozen Redis fails it, it does not hang it). */
  ping(): Promise<void>;
  readonly readModel: Pick<ReadModel, 'isCaughtUp'>;
  /** Why change messages may not be arriving, from every subscription of the node; null when healthy. */
  changeStreamProblem(): string | null;
  readonly drain?: { readonly draining: boolean };
  readonly timeoutMs: number;
}

/**
 * readModel is required: without it the node can answer nothing (503). caughtUp and changeStream
 * are not: while the read model is rebuilt after losing its data the node answers what it has
 * (misses are 503), and without Kafka it keeps serving reads from Redis and keeps its streams open
 * with heartbeats (deltas wait): `degraded`, still 200, so a load balancer keeps sending reads.
 */
export const createApiReadiness = (deps: ApiReadinessDeps): Readiness =>
  createReadiness({
    drain: deps.drain,
    timeoutMs: deps.timeoutMs,
    checks: [
      { name: 'readModel', required: true, probe: () => deps.ping() },
      {
        name: 'caughtUp',
        required: false,
        probe: async () => {
          if (!(await deps.readModel.isCaughtUp())) throw new Error('the read model is being rebuilt');
        },
      },
      {
        name: 'changeStream',
        required: false,
        probe: async () => {
          const problem = deps.changeStreamProblem();
          if (problem !== null) throw new Error(problem);
        },
      },
    ],
  });
