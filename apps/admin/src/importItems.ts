import { isPubstreamError, type ItemCommand } from '@pubstream/domain';
import { boundedLines } from '@pubstream/http';
import { deterministicUuid } from './idempotency.js';
import { parseImportLine } from './importLine.js';
import type { ItemWriter } from './itemWriter.js';

/** Items per `appendToStreams` call: one SQLite transaction each. */
export const IMPORT_BATCH_SIZE = 500;
/** A longer line is reported as failed while it streams; it is never held whole. */
export const MAX_IMPORT_LINE_BYTES = 1024 * 1024;
/** Failures listed in the summary (all are counted). */
export const MAX_REPORTED_ERRORS = 100;
/** A compressed import may expand at most this much (past 1 MiB): real NDJSON stays far below, a bomb does not. */
export const IMPORT_MAX_EXPANSION = 200;

export interface ImportSummary {
  /** Non-empty lines read. */
  lines: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  /** The first failures, each with its 1-based line number. */
  errors: { line: number; dataId?: string; message: string }[];
  /** Position of the last event appended (for read-your-writes), null when nothing was. */
  lastPosition: number | null;
}

interface PendingLine {
  line: number;
  command: ItemCommand;
}

interface ImportDeps {
  writeItems: ItemWriter;
  newId: () => string;
  idempotencyKey?: string;
}

/** Collects parsed lines and writes them in batches of distinct dataIds, counting outcomes into `summary`. */
const createBatcher = (summary: ImportSummary, deps: ImportDeps, fail: (line: number, message: string, dataId?: string) => void) => {
  let batch: PendingLine[] = [];
  let inBatch = new Set<string>();
  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    inBatch = new Set();
    // Each line gets its own idempotency key: one request may write the same item twice.
    const outcomes = await deps.writeItems(
      current.map((entry) => ({
        command: entry.command,
        idempotencyKey: deps.idempotencyKey === undefined ? undefined : `${deps.idempotencyKey}\u0000line${entry.line}`,
      })),
    );
    outcomes.forEach((outcome, index) => {
      const entry = current[index] as PendingLine;
      if (!outcome.ok) return fail(entry.line, outcome.error.message, entry.command.dataId);
      if (outcome.change === 'created') summary.created++;
      else if (outcome.change === 'updated') summary.updated++;
      else summary.unchanged++;
      if (outcome.position !== null) summary.lastPosition = Math.max(summary.lastPosition ?? 0, outcome.position);
    });
  };
  const add = async (line: number, command: ItemCommand) => {
    // A dataId twice in one batch: the second must see the first's result, so write the batch first.
    if (inBatch.has(command.dataId)) await flush();
    batch.push({ line, command });
    inBatch.add(command.dataId);
    if (batch.length >= IMPORT_BATCH_SIZE) await flush();
  };
  return { add, flush };
};

const written = (summary: ImportSummary) => summary.created + summary.updated + summary.unchanged > 0;

/**
 * Imports NDJSON lines `{"dataId": "...", "data": {...}}` into a collection, streaming with bounded
 * memory (docs/security.md): lines are read by `boundedLines` (a line over 1 MiB is counted as
 * failed while it streams, never buffered), parsed as they arrive and written in batches. A bad
 * line is counted and reported with its line number; every other line is still written.
 * Re-running the same file changes nothing (unchanged items append no event). When the body
 * itself breaks (corrupt compressed data) after lines were written, the summary reports where it
 * stopped instead of failing the whole request; before any write, the error is thrown (400/413).
 */
export const importItems = async (input: AsyncIterable<Buffer | string>, collection: string, deps: ImportDeps): Promise<ImportSummary> => {
  const summary: ImportSummary = { lines: 0, created: 0, updated: 0, unchanged: 0, failed: 0, errors: [], lastPosition: null };
  const fail = (line: number, message: string, dataId?: string) => {
    summary.failed++;
    if (summary.errors.length < MAX_REPORTED_ERRORS) summary.errors.push(dataId === undefined ? { line, message } : { line, dataId, message });
  };
  const batcher = createBatcher(summary, deps, fail);
  let lastLine = 0;
  try {
    for await (const lines of boundedLines(input, MAX_IMPORT_LINE_BYTES)) {
      for (const line of lines) {
        lastLine = line.number;
        if (!('text' in line)) {
          summary.lines++;
          fail(line.number, 'Line is longer than 1 MiB');
          continue;
        }
        if (line.text.trim() === '') continue;
        summary.lines++;
        const parsed = parseImportLine(line.text);
        if (!parsed.ok) {
          fail(line.number, parsed.message, parsed.dataId);
          continue;
        }
        const id = deps.idempotencyKey === undefined ? deps.newId() : deterministicUuid('item', deps.idempotencyKey, String(line.number));
        await batcher.add(line.number, { type: 'PutItem', id, dataId: parsed.dataId, collection, data: parsed.data });
      }
    }
  } catch (error) {
    await batcher.flush();
    if (!isPubstreamError(error) || !written(summary)) throw error;
    fail(lastLine + 1, `${error.message}: the import stopped here; the lines before it were imported`);
    return summary;
  }
  await batcher.flush();
  return summary;
};
