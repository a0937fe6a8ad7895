import type { Config } from '@pubstream/config';
import { createLogger, type Logger } from '@pubstream/observability';
import { startApiProcess, type RunningProcess } from '../distributedProcesses.js';
import { apiWorkerPlan } from './apiWorkerPlan.js';
import { forkApiWorkers, type ApiWorkerPool } from './apiWorkers.js';

/**
 * `pubstream api`: one API process, or with API_WORKERS > 1 a primary that only supervises that
 * many workers sharing the port (docs/operations.md, "API workers"). Each worker is the API
 * process as it is: Redis holds the read model, the limits and the stream slots, Kafka the changes.
 */
export const startApiProcesses = async (
  config: Config,
  logger: Logger = createLogger({ level: config.logLevel, name: 'pubstream-api' }),
  /** Workers main.ts forked before the CLI loaded. */
  earlyWorkers: ApiWorkerPool | null = null,
): Promise<RunningProcess> => {
  const plan = apiWorkerPlan(config);
  if (plan.reason !== null) logger.info(plan.reason);
  if (plan.count <= 1) return startApiProcess(config, logger);
  const pool = earlyWorkers ?? forkApiWorkers({ count: plan.count, logger });
  const stop = () => pool.stop(config.shutdownTimeoutMs);
  try {
    const url = await (await pool.open(() => () => {})).listen();
    logger.info({ url, workers: plan.count }, 'public API listening in API workers');
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
