import { Command } from 'commander';
import { registerAdminToolCommands } from './commands/adminToolCommands.js';
import { describeCliFailure } from './commands/cliFailure.js';
import { registerDataToolCommands } from './commands/dataToolCommands.js';
import { registerProcessCommands } from './commands/processCommands.js';
import { registerStartCommand } from './commands/startCommand.js';
import type { ApiWorkerPool } from './workers/apiWorkers.js';

/** Runs the `pubstream` command line; `earlyWorkers`: API workers main.ts forked before this code loaded. */
export const runCli = (earlyWorkers: ApiWorkerPool | null): void => {
const program = new Command()
  .name('pubstream')
  .description('Pubstream: public data delivery with API keys and live Server-Sent Events')
  .showHelpAfterError();
registerStartCommand(program, earlyWorkers);
registerProcessCommands(program, earlyWorkers);
registerAdminToolCommands(program);
registerDataToolCommands(program);

// `pubstream events export | head`: a closed pipe ends the export quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

program.parseAsync(process.argv).catch((error: unknown) => {
  const failure = describeCliFailure(error);
  process.stderr.write(`${failure.message}\n`);
  process.exit(failure.exitCode);
});
};
