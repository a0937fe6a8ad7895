#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { ConfigError, loadConfig, type Config, type ProcessRole } from '@pubstream/config';
import { createLogger, type Logger } from '@pubstream/observability';
import { AdminApiError, createAdminClient } from './adminClient.js';
import { startAllInOne } from './allInOne.js';
import { installProcessGuard } from './processGuard.js';
import { startupBanner } from './startupBanner.js';
import { runEventsExport, runProjectionsRebuild } from './dataTools.js';
import { openEventStore, openStores } from './adapters.js';
import { startAdminProcess, startApiProcess } from './distributedProcesses.js';
import { projectorNodeOptionsFromEnv, runProjectorNode } from './distributed/index.js';
import { projectionStatus } from '@pubstream/projector';
import { EventLogOpenError } from '@pubstream/event-store';

/** Exit codes: 1 runtime failure, 2 bad configuration or usage. */
class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

const configFor = (role: ProcessRole): Config => {
  try {
    return loadConfig(process.env, role);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, 2);
    throw error;
  }
};

/** Runs until SIGTERM / SIGINT, then stops gracefully; a second signal exits at once. */
const runUntilSignal = (stop: () => Promise<void>, timeoutMs: number, log: (message: string) => void): void => {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: shutting down (stop accepting, drain, close)`);
    const timer = setTimeout(() => {
      log(`shutdown took longer than ${timeoutMs} ms: exiting`);
      process.exit(1);
    }, timeoutMs + 2_000);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
};

const adminClientFromEnv = () => {
  const config = configFor('tool');
  if (config.adminToken === null) throw new CliError('ADMIN_TOKEN is required to talk to the admin API (the token "pubstream start" printed, or the one you configured)', 2);
  return createAdminClient(config.adminUrl, config.adminToken);
};

const printJson = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

const program = new Command()
  .name('pubstream')
  .description('Pubstream: public data delivery with API keys and live Server-Sent Events')
  .showHelpAfterError();

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

const distributed = {
  api: startApiProcess,
  // Lease TTL (PROJECTOR_LEASE_TTL_MS), active/standby log lines and the crash-test hook: apps/cli/src/distributed.
  projector: (config: Config, logger: Logger) => runProjectorNode(config, projectorNodeOptionsFromEnv(process.env), logger),
  admin: startAdminProcess,
} as const;
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
      const running = await distributed[role](config, logger);
      runUntilSignal(running.stop, config.shutdownTimeoutMs, (message) => logger.info(message));
    });
}

program
  .command('import')
  .description('import an NDJSON file ({"dataId": ..., "data": {...}} per line) into a collection through the admin API')
  .argument('<slug>', 'collection slug')
  .argument('<file>', 'NDJSON file')
  .action(async (slug: string, file: string) => {
    try {
      readFileSync(file, { flag: 'r' }).subarray(0, 0);
    } catch {
      throw new CliError(`Cannot read ${file}`, 2);
    }
    const summary = (await adminClientFromEnv().importFile(slug, file)) as { failed: number };
    printJson(summary);
    if (summary.failed > 0) process.exitCode = 1;
  });

const keys = program.command('keys').description('manage API keys through the admin API');
keys
  .command('create')
  .requiredOption('--name <name>', 'descriptive label')
  .addOption(new Option('--type <type>', 'key type').choices(['live', 'test']).default('test'))
  .option('--domains <list>', 'comma-separated allowed domains (host names or *.wildcards)', '')
  .option('--rate-limit <n>', 'requests per window (default: the plan default)', (value) => Number.parseInt(value, 10))
  .action(async (options: { name: string; type: string; domains: string; rateLimit?: number }) => {
    printJson(
      await adminClientFromEnv().request('POST', '/admin/keys', {
        json: { name: options.name, type: options.type, allowedDomains: options.domains, rateLimit: options.rateLimit },
      }),
    );
  });
keys.command('list').action(async () => {
  printJson(await adminClientFromEnv().request('GET', '/admin/keys'));
});
keys
  .command('delete')
  .argument('<keyId>')
  .action(async (keyId: string) => {
    await adminClientFromEnv().request('DELETE', `/admin/keys/${encodeURIComponent(keyId)}`);
    process.stdout.write(`deleted ${keyId}\n`);
  });

const projections = program.command('projections').description('projection status and rebuilds');
projections
  .command('status')
  .description('per projection: checkpoint, log head, lag in events and seconds, events/s')
  .action(async () => {
    const config = configFor('tool');
    if (config.redisUrl === null) {
      throw new CliError('projections status reads the projector checkpoint from Redis (REDIS_URL); the embedded profile keeps it in the running process', 2);
    }
    const logger = createLogger({ level: 'warn', name: 'pubstream' });
    const eventStore = openEventStore(config, () => new Date());
    const { stores } = await openStores(config, logger, () => new Date());
    try {
      const rows = await projectionStatus({ eventStore, checkpoints: stores.projections });
      console.table(rows);
    } finally {
      await stores.close();
      await eventStore.close();
    }
  });
projections
  .command('rebuild')
  .description('rebuild read models from the log into a new generation (--dry-run: compare with the live one)')
  .argument('[names...]', 'only these projections')
  .option('--dry-run', 'rebuild beside the live generation and report differences, without switching', false)
  .action(async (names: string[], options: { dryRun: boolean }) => {
    const config = configFor('tool');
    try {
      const result = await runProjectionsRebuild(config, createLogger({ level: 'warn', name: 'pubstream' }), { dryRun: options.dryRun, only: names.length > 0 ? names : undefined });
      if (result === null) return; // embedded profile: nothing to rebuild while running
      printJson({ position: result.position, events: result.events, eventsPerSecond: result.eventsPerSecond, differences: result.differences ?? [] });
      if ((result.differences?.length ?? 0) > 0) process.exitCode = 1;
    } catch (error) {
      throw new CliError(error instanceof Error ? error.message : String(error));
    }
  });

const integer = (name: string) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0) throw new CliError(`${name} must be a position (an integer ≥ 0)`, 2);
  return parsed;
};
program
  .command('events')
  .description('the event log')
  .command('export')
  .description('stream the log (with positions) as NDJSON to stdout or a file, or into a Kafka topic')
  .option('--from <position>', 'events after this position', integer('--from'))
  .option('--to <position>', 'up to and including this position', integer('--to'))
  .option('--types <list>', 'comma-separated event types')
  .addOption(new Option('--format <format>', 'output format').choices(['ndjson']).default('ndjson'))
  .option('--output <file>', 'write to a file instead of stdout')
  .option('--to-kafka <topic>', 'publish to a Kafka topic keyed by entity (KAFKA_BROKERS)')
  .action(async (options: { from?: number; to?: number; types?: string; output?: string; toKafka?: string }) => {
    const config = configFor('tool');
    const count = await runEventsExport(config, {
      from: options.from,
      to: options.to,
      types: options.types?.split(',').map((type) => type.trim()).filter(Boolean),
      output: options.output,
      toKafka: options.toKafka,
    });
    process.stderr.write(`exported ${count} events\n`);
  });

// `pubstream events export | head`: a closed pipe ends the export quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CliError) {
    process.stderr.write(`pubstream: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  if (error instanceof EventLogOpenError) {
    process.stderr.write(`pubstream: ${error.message}\n`);
    process.exit(1);
  }
  if (error instanceof AdminApiError) {
    process.stderr.write(`pubstream: ${error.message}\n`);
    process.exit(1);
  }
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') {
    process.stderr.write(`pubstream: ${(error as Error).message} (another process uses the port; set PORT / ADMIN_PORT)\n`);
    process.exit(1);
  }
  process.stderr.write(`pubstream: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
