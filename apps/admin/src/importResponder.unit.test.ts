import { describe, expect, it } from 'vitest';
import { createIdempotencyRecords } from './idempotencyRecords.js';
import type { ImportSummary } from './importItems.js';
import { createImportResponder } from './importResponder.js';
import { koaContext } from './testing/koaContext.js';
import { createWriteWorld } from './testing/writeWorld.js';

async function* chunks(text: string): AsyncIterable<Buffer> {
  for (const part of text.split(/(?<=\n)/)) yield Buffer.from(part);
}

const setup = () => {
  const world = createWriteWorld();
  const records = createIdempotencyRecords({ commands: world.commands, logger: { warn: () => undefined } });
  const respondImport = createImportResponder({ records, readYourWrites: async () => world.visible });
  const imports: string[] = [];
  const run = async (ndjson: string, headers: Record<string, string> = {}) => {
    const ctx = koaContext({ method: 'POST', path: '/admin/collections/books/items:import', headers });
    // Reads only the first line, as an import that stops early would: the responder hashes the whole body anyway.
    const perform = async (input: AsyncIterable<Buffer>): Promise<ImportSummary> => {
      for await (const chunk of input) {
        imports.push(chunk.toString());
        break;
      }
      return { lines: 1, created: 1, updated: 0, unchanged: 0, failed: 0, errors: [], lastPosition: 9 };
    };
    await respondImport(ctx, chunks(ndjson), perform).catch((error: unknown) => {
      ctx.status = (error as { status?: number }).status ?? 500;
    });
    return { status: ctx.status, body: ctx.body, replayed: ctx.response.get('Idempotent-Replayed') };
  };
  return { world, run, imports };
};

const FILE = '{"dataId":"a","data":{}}\n{"dataId":"b","data":{}}\n';

describe('importResponder', () => {
  it('answers the summary without its position, or 202 with it when the read model did not confirm', async () => {
    const { world, run } = setup();
    expect(await run(FILE)).toEqual({ status: 200, body: { lines: 1, created: 1, updated: 0, unchanged: 0, failed: 0, errors: [] }, replayed: undefined });
    world.visible = false;
    expect(await run(FILE)).toMatchObject({ status: 202, body: { position: 9 } });
  });

  it('with an Idempotency-Key, replays the same bytes without importing them again, and refuses other bytes (422)', async () => {
    const { run, imports } = setup();
    const key = { 'idempotency-key': 'import-1' };
    const first = await run(FILE, key);
    expect(await run(FILE, key)).toEqual({ ...first, replayed: 'true' });
    expect(await run(`${FILE}{"dataId":"c","data":{}}\n`, key)).toMatchObject({ status: 422 });
    expect(imports).toHaveLength(1);
  });
});
