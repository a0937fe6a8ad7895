import { createReadStream } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Config } from '@pubstream/config';
import { importEvents, type ExportedEvent } from '@pubstream/projector';
import { openEventStore } from './adapters.js';
import { CliError } from './commands/cliError.js';
import { parseImportLines } from './importLines.js';
import { createImportProgress, type ImportProgress } from './importProgress.js';

export interface EventsImportOptions {
  /** An NDJSON file of `pubstream events export`; stdin when absent or `-`. */
  readonly input?: string;
  readonly stdin?: Readable;
  /** Where the progress bar goes (only when it is a terminal). */
  readonly progressTo?: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface EventsImportResult {
  /** Events read from the input (each appended, or skipped when the log already holds its id). */
  readonly read: number;
  readonly headBefore: number;
  readonly headAfter: number;
}

const linesOf = (input: Readable): AsyncIterable<string> => createInterface({ input, crlfDelay: Infinity });

/** Checks a whole file before anything is appended; returns its event count (the progress total). */
const checkFile = async (path: string): Promise<number> => {
  try {
    await access(path, constants.R_OK);
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let count = 0;
  for await (const _event of parseImportLines(linesOf(createReadStream(path)))) count++;
  return count;
};

async function* reporting(events: AsyncIterable<ExportedEvent>, progress: ImportProgress): AsyncGenerator<ExportedEvent> {
  for await (const event of events) {
    yield event;
    progress.advance(1);
  }
}

/**
 * `pubstream events import` (docs/operations.md, "Export and import"): appends the events of an
 * export to this deployment's log, in order, keeping their ids, metadata and streams. Idempotent:
 * an event whose id the log holds is skipped, so an import can be run again (after a failure, or
 * twice by mistake). A file is checked whole first, so a bad line changes nothing; from stdin,
 * which cannot be read twice, the events before a bad line are appended and running the fixed
 * input again completes it. The running projector picks the new events up from the log.
 */
export const runEventsImport = async (config: Config, options: EventsImportOptions = {}): Promise<EventsImportResult> => {
  const file = options.input !== undefined && options.input !== '-' ? options.input : null;
  const total = file === null ? null : await checkFile(file);
  const eventStore = openEventStore(config, () => new Date());
  const progress = createImportProgress(options.progressTo ?? process.stderr, total);
  try {
    const headBefore = await eventStore.headPosition();
    const input = file === null ? (options.stdin ?? process.stdin) : createReadStream(file);
    const read = await importEvents(eventStore, reporting(parseImportLines(linesOf(input)), progress));
    return { read, headBefore, headAfter: await eventStore.headPosition() };
  } finally {
    progress.stop();
    await eventStore.close();
  }
};
