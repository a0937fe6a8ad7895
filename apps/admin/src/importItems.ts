import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { dataIdSchema, itemDataSchema, type ItemCommand } from '@pubstream/domain';
import { z } from 'zod';
import { deterministicUuid } from './idempotency.js';
import type { ItemWriter } from './itemWriter.js';

/** Items per `appendToStreams` call: one SQLite transaction each. */
export const IMPORT_BATCH_SIZE = 500;
/** A longer line is reported as failed rather than buffered. */
export const MAX_IMPORT_LINE_BYTES = 1024 * 1024;
/** Failures listed in the summary (all are counted). */
export const MAX_REPORTED_ERRORS = 100;

const importLineSchema = z.strictObject({ dataId: dataIdSchema, data: itemDataSchema });

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

const issueText = (error: z.ZodError): string =>
  error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');

/**
 * Imports NDJSON lines `{"dataId": "...", "data": {...}}` into a collection, streaming: lines are
 * parsed as they arrive and written in batches, so a file of any size uses bounded memory. A bad
 * line is counted and reported with its line number; every other line is still written. Re-running
 * the same file changes nothing (unchanged items append no event).
 */
export const importItems = async (
  input: Readable,
  collection: string,
  deps: { writeItems: ItemWriter; newId: () => string; idempotencyKey?: string },
): Promise<ImportSummary> => {
  const summary: ImportSummary = { lines: 0, created: 0, updated: 0, unchanged: 0, failed: 0, errors: [], lastPosition: null };
  const fail = (line: number, message: string, dataId?: string) => {
    summary.failed++;
    if (summary.errors.length < MAX_REPORTED_ERRORS) summary.errors.push(dataId === undefined ? { line, message } : { line, dataId, message });
  };

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

  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const text of lines) {
    lineNumber++;
    if (text.trim() === '') continue;
    summary.lines++;
    if (Buffer.byteLength(text) > MAX_IMPORT_LINE_BYTES) {
      fail(lineNumber, 'Line is longer than 1 MiB');
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      fail(lineNumber, 'Malformed JSON');
      continue;
    }
    const parsed = importLineSchema.safeParse(value);
    if (!parsed.success) {
      const dataId = typeof (value as { dataId?: unknown } | null)?.dataId === 'string' ? (value as { dataId: string }).dataId : undefined;
      fail(lineNumber, issueText(parsed.error), dataId);
      continue;
    }
    const { dataId, data } = parsed.data;
    // A dataId twice in one batch: the second must see the first's result, so write the batch first.
    if (inBatch.has(dataId)) await flush();
    const id = deps.idempotencyKey === undefined ? deps.newId() : deterministicUuid('item', deps.idempotencyKey, String(lineNumber));
    batch.push({ line: lineNumber, command: { type: 'PutItem', id, dataId, collection, data } });
    inBatch.add(dataId);
    if (batch.length >= IMPORT_BATCH_SIZE) await flush();
  }
  await flush();
  return summary;
};
