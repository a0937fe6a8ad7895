import { Readable } from 'node:stream';
import type { ItemCommand } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '@pubstream/domain';
import { IMPORT_BATCH_SIZE, importItems, MAX_IMPORT_LINE_BYTES } from './importItems.js';
import type { ItemWriteEntry, ItemWriter } from './itemWriter.js';

/** A writer over a plain map: created / updated / unchanged like the item decider decides. */
const fakeWriter = () => {
  const items = new Map<string, unknown>();
  const batches: ItemWriteEntry[][] = [];
  let position = 0;
  const write: ItemWriter = async (entries) => {
    batches.push([...entries]);
    return entries.map(({ command }) => {
      const put = command as Extract<ItemCommand, { type: 'PutItem' }>;
      const before = items.get(put.dataId);
      if (JSON.stringify(before) === JSON.stringify(put.data)) return { ok: true, change: 'unchanged', position: null, state: { status: 'none' } };
      items.set(put.dataId, put.data);
      return { ok: true, change: before === undefined ? 'created' : 'updated', position: ++position, state: { status: 'none' } };
    });
  };
  return { items, batches, write };
};

const run = (text: string, writer = fakeWriter(), idempotencyKey?: string) =>
  importItems(Readable.from([text]), 'books', { writeItems: writer.write, newId: () => '00000000-0000-4000-8000-000000000000', idempotencyKey });

describe('importItems', () => {
  it('counts created, updated and unchanged lines and skips blank ones', async () => {
    const writer = fakeWriter();
    const summary = await run(['{"dataId":"a","data":{"n":1}}', '', '{"dataId":"b","data":{}}', '{"dataId":"a","data":{"n":2}}', '{"dataId":"b","data":{}}'].join('\r\n'), writer);
    expect(summary).toMatchObject({ lines: 4, created: 2, updated: 1, unchanged: 1, failed: 0, errors: [] });
    expect(writer.items.get('a')).toEqual({ n: 2 });
  });

  it('reports each bad line with its 1-based number and still writes the rest', async () => {
    const writer = fakeWriter();
    const summary = await run(['{"dataId":"a","data":{}}', 'not json', '{"dataId":"bad id","data":{}}', '{"dataId":"c","data":[1]}', '{"dataId":"d"}', '{"dataId":"e","data":{},"x":1}', '{"dataId":"f","data":{}}'].join('\n'), writer);
    expect(summary.errors.map((error) => error.line)).toEqual([2, 3, 4, 5, 6]);
    expect(summary.errors[0]?.message).toBe('Malformed JSON');
    expect(summary.errors[1]).toMatchObject({ dataId: 'bad id', message: expect.stringContaining('Invalid dataId format') });
    expect(summary).toMatchObject({ created: 2, failed: 5 });
    expect([...writer.items.keys()]).toEqual(['a', 'f']);
  });

  it('writes in batches and keeps a dataId repeated within a batch in order', async () => {
    const writer = fakeWriter();
    const lines = Array.from({ length: IMPORT_BATCH_SIZE + 10 }, (_, i) => JSON.stringify({ dataId: `i${i}`, data: { i } }));
    lines.splice(5, 0, JSON.stringify({ dataId: 'i0', data: { i: 'again' } }));
    const summary = await run(lines.join('\n'), writer);
    expect(summary).toMatchObject({ created: IMPORT_BATCH_SIZE + 10, updated: 1 });
    expect(writer.items.get('i0')).toEqual({ i: 'again' });
    expect(writer.batches.every((batch) => batch.length <= IMPORT_BATCH_SIZE)).toBe(true);
    for (const batch of writer.batches) expect(new Set(batch.map((entry) => entry.command.dataId)).size).toBe(batch.length);
  });

  it('gives every line its own idempotency key, so a file writing one item twice replays correctly', async () => {
    const writer = fakeWriter();
    await run(['{"dataId":"a","data":{"n":1}}', '{"dataId":"a","data":{"n":2}}'].join('\n'), writer, 'import-1');
    const keys = writer.batches.flat().map((entry) => entry.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
    expect(keys.every((key) => key?.startsWith('import-1'))).toBe(true);
  });

  it('records the last position for read-your-writes', async () => {
    expect((await run('{"dataId":"a","data":{}}\n{"dataId":"b","data":{}}')).lastPosition).toBe(2);
    expect((await run('')).lastPosition).toBeNull();
  });

  it('fails a deep line, a __proto__ line and an over-long line alone, with their numbers', async () => {
    const writer = fakeWriter();
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const lines = [
      '{"dataId":"a","data":{}}',
      `{"dataId":"b","data":{"x":${deep}}}`,
      '{"dataId":"c","data":{"__proto__":{"polluted":true}}}',
      `{"dataId":"d","data":{"pad":"${'x'.repeat(MAX_IMPORT_LINE_BYTES)}"}}`,
      '{"dataId":"e","data":{"constructor":1}}',
    ];
    const summary = await run(lines.join('\n'), writer);
    expect(summary.errors).toEqual([
      { line: 2, message: 'JSON nested too deeply' },
      { line: 3, message: 'JSON key "__proto__" is not allowed' },
      { line: 4, message: 'Line is longer than 1 MiB' },
    ]);
    expect(summary).toMatchObject({ lines: 5, created: 2, failed: 3 });
    expect(writer.items.get('e')).toEqual({ constructor: 1 });
  });

  it('skips a 4 MiB line that arrives in pieces, and writes the lines around it', async () => {
    const writer = fakeWriter();
    const piece = Buffer.alloc(64 * 1024, 0x78);
    const summary = await importItems(
      (async function* () {
        yield Buffer.from('{"dataId":"before","data":{}}\n');
        for (let i = 0; i < 64; i++) yield piece;
        yield Buffer.from('\n{"dataId":"after","data":{}}');
      })(),
      'books',
      { writeItems: writer.write, newId: () => '00000000-0000-4000-8000-000000000000' },
    );
    expect(summary).toMatchObject({ lines: 3, created: 2, failed: 1, errors: [{ line: 2, message: 'Line is longer than 1 MiB' }] });
    expect([...writer.items.keys()]).toEqual(['before', 'after']);
  });

  it('reports a broken body after written lines in the summary, and throws when nothing was written', async () => {
    const broken = (head: string) =>
      (async function* () {
        yield Buffer.from(head);
        throw new ValidationError('Request body is not valid gzip data');
      })();
    const deps = { writeItems: fakeWriter().write, newId: () => '00000000-0000-4000-8000-000000000000' };
    const summary = await importItems(broken('{"dataId":"a","data":{}}\n{"dataId":"b"'), 'books', deps);
    expect(summary).toMatchObject({ created: 1, failed: 1 });
    expect(summary.errors).toEqual([{ line: 2, message: 'Request body is not valid gzip data: the import stopped here; the lines before it were imported' }]);
    await expect(importItems(broken(''), 'books', deps)).rejects.toThrow('Request body is not valid gzip data');
  });
});
