import cluster from 'node:cluster';
import { loadConfig, type ProcessRole } from '@pubstream/config';
import { createLogger } from '@pubstream/observability';
import { apiWorkerPlan } from './apiWorkerPlan.js';
import { forkApiWorkers, type ApiWorkerPool } from './apiWorkers.js';

const ROLES: Readonly<Record<string, ProcessRole>> = { start: 'all-in-one', api: 'api' };

/**
 * The API workers of `pubstream start` or `pubstream api`, forked as early as the primary can: they
 * wait for its `open` (workerMessages.ts). Null in a worker, for other commands, for a bad
 * configuration (the command reports it) and when the plan is one process.
 */
export const forkWorkersEarly = (args: readonly string[], env: Readonly<Record<string, string | undefined>>): ApiWorkerPool | null => {
  const role = ROLES[args[0] ?? ''];
  if (!cluster.isPrimary || role === undefined || args.includes('--help') || args.includes('-h')) return null;
  let config;
  try {
    config = loadConfig(env, role);
  } catch {
    return null;
  }
  const plan = apiWorkerPlan(config);
  if (plan.count <= 1) return null;
  return forkApiWorkers({ count: plan.count, logger: createLogger({ level: config.logLevel, name: role === 'api' ? 'pubstream-api' : 'pubstream' }).child({ component: 'api-workers' }) });
};
