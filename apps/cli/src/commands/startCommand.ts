import cluster from 'node:cluster';
import type { Command } from 'commander';
import { createLogger } from '@pubstream/observability';
import { startAllInOne } from '../allInOne.js';
import { installProcessGuard } from '../processGuard.js';
import { startupBanner } from '../startupBanner.js';
import { runApiWorker } from '../workers/apiWorker.js';
import { apiWorkerPlan } from '../workers/apiWorkerPlan.js';
import { forkApiWorkers, type ApiWorkerPool } from '../workers/apiWorkers.js';
import { apiWorkersHost } from '../workers/apiWorkersHost.js';
import { configFor } from './commandConfig.js';
import { runUntilSignal } from './runUntilSignal.js';

/** `pubstream start`: the embedded profile, in one process or with API_WORKERS public API workers. */
export const registerStartCommand = (program: Command, earlyWorkers: ApiWorkerPool | null = null): void => {
  program
    .command('start')
    .description('run everything in one process (embedded profile): public API, admin API, projector, SQLite log')
    .option('--no-demo', 'do not seed the demo collection and test key on first start')
    .action(async (options: { demo: boolean }) => {
      const config = configFor('all-in-one');
      const logger = createLogger({ level: config.logLevel, name: 'pubstream' });
      installProcessGuard(logger);
      const plan = apiWorkerPlan(config);
      // node:cluster runs this same command in each API worker (docs/architecture.md, "API workers").
      if (cluster.isWorker) return runApiWorker(config, logger.child({ worker: cluster.worker?.id }), plan.mode === 'shared' ? 'shared' : 'followLog');
      if (plan.reason !== null) logger.info(plan.reason);
      // Forked by main.ts before this code loaded, else now: the workers load their code meanwhile.
      const pool = plan.mode === 'single' ? null : (earlyWorkers ?? forkApiWorkers({ count: plan.count, logger: logger.child({ component: 'api-workers' }) }));
      const publicApi = pool && plan.mode !== 'single' ? apiWorkersHost(pool, plan.count, plan.mode) : undefined;
      const running = await startAllInOne({ config, logger, demo: options.demo, publicApi }).catch(async (error: unknown) => {
        await pool?.stop(0);
        throw error;
      });
      process.stdout.write(`${startupBanner(running)}\n`);
      logger.info({ publicUrl: running.publicUrl, adminUrl: running.adminUrl, dataDir: config.dataDir }, 'pubstream started');
      runUntilSignal(running.stop, config.shutdownTimeoutMs, (message) => logger.info(message));
    });
};
