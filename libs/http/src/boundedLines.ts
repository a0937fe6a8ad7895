/** One line of a byte stream, numbered from 1, or the mark of a line that was too long to keep. */
export type BoundedLine = { readonly number: number; readonly text: string } | { readonly number: number; readonly tooLong: true };

const NEWLINE = 0x0a;

const decode = (parts: readonly Buffer[]): string => {
  const text = (parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts)).toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
};

/**
 * Splits a byte stream into `\n`-separated lines without ever holding more than `maxLineBytes`
 * of one (docs/security.md, NDJSON import). A longer line is reported `tooLong` as soon as it
 * crosses the bound, while it streams; its remaining bytes are skipped up to the next newline.
 * Lines are yielded per chunk, so a stream of short lines costs one await per chunk, not per line.
 */
export async function* boundedLines(chunks: AsyncIterable<Buffer | string>, maxLineBytes: number): AsyncGenerator<BoundedLine[], void, undefined> {
  let number = 1;
  let parts: Buffer[] = [];
  let length = 0;
  let skipping = false;
  for await (const input of chunks) {
    const chunk = typeof input === 'string' ? Buffer.from(input) : input;
    const lines: BoundedLine[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!skipping && length + (end - start) > maxLineBytes) {
        skipping = true;
        parts = [];
        length = 0;
        lines.push({ number, tooLong: true });
      } else if (!skipping && end > start) {
        parts.push(chunk.subarray(start, end));
        length += end - start;
      }
      if (newline === -1) break;
      if (!skipping) lines.push({ number, text: decode(parts) });
      number++;
      parts = [];
      length = 0;
      skipping = false;
      start = newline + 1;
    }
    if (lines.length > 0) yield lines;
  }
  if (!skipping && length > 0) yield [{ number, text: decode(parts) }];
}
