#!/usr/bin/env node
import { forkWorkersEarly } from './workers/forkWorkersEarly.js';

// API workers are forked before the rest of the CLI loads, so that they load their code while this
// process loads its own (docs/architecture.md, "API workers"): a start takes about one load, not two.
const earlyWorkers = forkWorkersEarly(process.argv.slice(2), process.env);
const { runCli } = await import('./cli.js');
runCli(earlyWorkers);
