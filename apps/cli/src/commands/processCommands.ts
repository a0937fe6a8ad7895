import cluster from 'node:cluster';
import type { Command } from 'commander';
import type { Config } from '@pubstream/config';
import { createLogger, type Logger } from '@pubstream/observability';
import { projectorNodeOptionsFromEnv, runProjectorNode } from '../distributed/index.js';
import { startAdminProcess } from '../distributedProcesses.js';
import { installProcessGuard } from '../processGuard.js';
import { CliError } from './cliError.js';
import { configFor } from './commandConfig.js';
import { runUntilSignal } from './runUntilSignal.js';
import { startApiProcesses } from '../workers/apiProcesses.js';
import { runApiWorker } from '../workers/apiWorker.js';
import type { ApiWorkerPool } from '../workers/apiWorkers.js';

const starters = {
  // Lease TTL (PROJECTOR_LEASE_TTL_MS), active/standby log lines and the crash-test hook: apps/cli/src/distributed.
  projector: (config: Config, logger: Logger) => runProjectorNode(config, projectorNodeOptionsFromEnv(process.env), logger),
  admin: startAdminProcess,
} as const;

/** `pubstream api|projector|admin`: one process of the distributed profile each. */
export const registerProcessCommands = (program: Command, earlyWorkers: ApiWorkerPool | null = null): void => {
  for (const role of ['api', 'projector', 'admin'] as const) {
    program
      .command(role)
      .description(`run the ${role} process of the distributed profile (REDIS_URL, KAFKA_BROKERS, EVENT_STORE_URL, …)`)
      .action(async () => {
        const config = configFor(role);
        if (role === 'admin' && config.adminToken === null) throw new CliError('ADMIN_TOKEN is required for "pubstream admin"', 2);
        const logger = createLogger({ level: config.logLevel, name: `pubstream-${role}` });
        // A projector that meets the unexpected exits instead: a standby takes its lease (docs/security.md).
        if (role !== 'projector') installProcessGuard(logger);
        // node:cluster runs `pubstream api` again in each API worker (docs/architecture.md, "API workers").
        if (role === 'api' && cluster.isWorker) return runApiWorker(config, logger.child({ worker: cluster.worker?.id }), 'shared');
        const running = role === 'api' ? await startApiProcesses(config, logger, earlyWorkers) : await starters[role](config, logger);
        runUntilSignal(running.stop, config.shutdownTimeoutMs, (message) => logger.info(message));
      });
  }
};
