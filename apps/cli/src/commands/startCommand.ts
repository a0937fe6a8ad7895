import type { Command } from 'commander';
import { createLogger } from '@pubstream/observability';
import { startAllInOne } from '../allInOne.js';
import { installProcessGuard } from '../processGuard.js';
import { startupBanner } from '../startupBanner.js';
import { configFor } from './commandConfig.js';
import { runUntilSignal } from './runUntilSignal.js';

/** `pubstream start`: the embedded profile in one process. */
export const registerStartCommand = (program: Command): void => {
  program
    .command('start')
    .description('run everything in one process (embedded profile): public API, admin API, projector, SQLite log')
    .option('--no-demo', 'do not seed the demo collection and test key on first start')
    .action(async (options: { demo: boolean }) => {
      const config = configFor('all-in-one');
      const logger = createLogger({ level: config.logLevel, name: 'pubstream' });
      installProcessGuard(logger);
      const running = await startAllInOne({ config, logger, demo: options.demo });
      process.stdout.write(`${startupBanner(running)}\n`);
      logger.info({ publicUrl: running.publicUrl, adminUrl: running.adminUrl, dataDir: config.dataDir }, 'pubstream started');
      runUntilSignal(running.stop, config.shutdownTimeoutMs, (message) => logger.info(message));
    });
};
