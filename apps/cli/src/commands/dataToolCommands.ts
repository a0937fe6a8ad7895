import { Option, type Command } from 'commander';
import { createLogger } from '@pubstream/observability';
import { projectionStatus } from '@pubstream/projector';
import { openEventStore, openStores } from '../adapters.js';
import { runEventsExport, runProjectionsRebuild } from '../dataTools.js';
import { CliError } from './cliError.js';
import { configFor, printJson } from './commandConfig.js';
import { positionArgument } from './positionArgument.js';

/** `pubstream projections status|rebuild` and `pubstream events export`: tools on the log and the read models. */
export const registerDataToolCommands = (program: Command): void => {
  const projections = program.command('projections').description('projection status and rebuilds');
  projections
    .command('status')
    .description('per projection: checkpoint, log head, lag in events and seconds, events/s, oldest resumable position')
    .action(printProjectionStatus);
  projections
    .command('rebuild')
    .description('rebuild read models from the log into a new generation (--dry-run: compare with the live one)')
    .argument('[names...]', 'only these projections')
    .option('--dry-run', 'rebuild beside the live generation and report differences, without switching', false)
    .action(rebuildProjections);
  program
    .command('events')
    .description('the event log')
    .command('export')
    .description('stream the log (with positions) as NDJSON to stdout or a file, or into a Kafka topic')
    .option('--from <position>', 'events after this position', positionArgument('--from'))
    .option('--to <position>', 'up to and including this position', positionArgument('--to'))
    .option('--types <list>', 'comma-separated event types')
    .addOption(new Option('--format <format>', 'output format').choices(['ndjson']).default('ndjson'))
    .option('--output <file>', 'write to a file instead of stdout')
    .option('--to-kafka <topic>', 'publish to a Kafka topic keyed by entity (KAFKA_BROKERS)')
    .action(exportEvents);
};

const printProjectionStatus = async (): Promise<void> => {
  const config = configFor('tool');
  if (config.redisUrl === null) {
    throw new CliError('projections status reads the projector checkpoint from Redis (REDIS_URL); the embedded profile keeps it in the running process', 2);
  }
  const logger = createLogger({ level: 'warn', name: 'pubstream' });
  const eventStore = openEventStore(config, () => new Date());
  const { stores } = await openStores(config, logger, () => new Date());
  try {
    console.table(await projectionStatus({ eventStore, checkpoints: stores.projections, history: stores.history }));
  } finally {
    await stores.close();
    await eventStore.close();
  }
};

const rebuildProjections = async (names: string[], options: { dryRun: boolean }): Promise<void> => {
  const config = configFor('tool');
  try {
    const logger = createLogger({ level: 'warn', name: 'pubstream' });
    const result = await runProjectionsRebuild(config, logger, { dryRun: options.dryRun, only: names.length > 0 ? names : undefined });
    if (result === null) return; // embedded profile: nothing to rebuild while running
    printJson({ position: result.position, events: result.events, eventsPerSecond: result.eventsPerSecond, differences: result.differences ?? [] });
    if ((result.differences?.length ?? 0) > 0) process.exitCode = 1;
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
};

const exportEvents = async (options: { from?: number; to?: number; types?: string; output?: string; toKafka?: string }): Promise<void> => {
  const config = configFor('tool');
  const count = await runEventsExport(config, {
    from: options.from,
    to: options.to,
    types: options.types?.split(',').map((type) => type.trim()).filter(Boolean),
    output: options.output,
    toKafka: options.toKafka,
  });
  process.stderr.write(`exported ${count} events\n`);
};
