import type { ExportedEvent } from '@pubstream/projector';
import { z } from 'zod';

/** The shape of one line of `pubstream events export` (apps/projector/src/eventExport.ts). */
const exportedEventSchema = z.object({
  position: z.number().int().nonnegative(),
  streamName: z.string().min(1),
  revision: z.number().int().nonnegative(),
  eventId: z.string().min(1),
  type: z.string().min(1),
  data: z.unknown(),
  metadata: z.record(z.string(), z.unknown()),
  recordedAt: z.string().min(1),
});

/** A line of an import that is not an exported event: names the line and what is wrong with it. */
export class ImportLineError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'ImportLineError';
  }
}

/** One line as an exported event, or an ImportLineError naming it (1-based `line`). */
export const parseImportLine = (text: string, line: number): ExportedEvent => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImportLineError(line, 'not JSON (expected one exported event per line, as `pubstream events export` writes)');
  }
  const parsed = exportedEventSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'the line';
    throw new ImportLineError(line, `${field}: ${issue?.message ?? 'invalid'} (not an exported event)`);
  }
  return parsed.data as ExportedEvent;
};

/** The events of NDJSON lines in order (blank lines skipped); throws ImportLineError at the first bad line. */
export async function* parseImportLines(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<ExportedEvent> {
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    yield parseImportLine(text, line);
  }
}
