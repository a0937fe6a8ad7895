import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteEventStore, openSqliteDatabase, type RecordedEvent } from '@pubstream/event-store';
import { runCli } from './testing/runCli.js';

// `pubstream events import`, the counterpart of `events export`, through the CLI on SQLite logs
// (docs/operations.md, "Export and import").
describe('pubstream events import', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-import-'));
  const exported = join(dir, 'export.ndjson');
  const log = (name: string) => `sqlite:${join(dir, `${name}.db`)}`;
  let source: RecordedEvent[] = [];

  const readLog = async (name: string): Promise<RecordedEvent[]> => {
    const store = createSqliteEventStore(openSqliteDatabase(join(dir, `${name}.db`)));
    const events: RecordedEvent[] = [];
    for await (const event of store.readAll({ after: 0 })) events.push(event);
    await store.close();
    return events;
  };
  const sameEvents = (events: RecordedEvent[]) => events.map((e) => [e.eventId, e.streamName, e.revision, e.type, JSON.stringify(e.data)]);

  beforeAll(async () => {
    const store = createSqliteEventStore(openSqliteDatabase(join(dir, 'source.db')));
    await store.appendToStream('collection-news', [{ type: 'CollectionCreated', data: { slug: 'news', name: 'News', sortableFields: [] }, metadata: {} }], { expectedRevision: 'any' });
    for (const id of ['a', 'b', 'a', 'c']) await store.appendToStream(`item-${id}`, [{ type: 'ItemUpdated', data: { dataId: id, collection: 'news', data: { id } }, metadata: {} }], { expectedRevision: 'any' });
    await store.close();
    source = await readLog('source');
    const run = await runCli(['events', 'export', '--output', exported], { EVENT_STORE_URL: log('source') });
    expect(run.code).toBe(0);
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('appends an export file to an empty log: the same events, ids, streams and order; again, nothing new', async () => {
    const first = await runCli(['events', 'import', exported], { EVENT_STORE_URL: log('copy') });
    expect(first.code).toBe(0);
    // Not a terminal: no progress bar, one summary line.
    expect(first.stderr).toBe(`imported 5 events (log head 0 -> 5; events already in the log were skipped)\n`);
    expect(sameEvents(await readLog('copy'))).toEqual(sameEvents(source));
    const again = await runCli(['events', 'import', exported], { EVENT_STORE_URL: log('copy') });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('log head 5 -> 5');
    expect(await readLog('copy')).toHaveLength(5);
  }, 60_000);

  it('reads stdin when no file (or -) is given', async () => {
    const run = await runCli(['events', 'import', '-'], { EVENT_STORE_URL: log('piped') }, { stdin: readFileSync(exported, 'utf8') });
    expect(run.code).toBe(0);
    expect(sameEvents(await readLog('piped'))).toEqual(sameEvents(source));
  }, 60_000);

  it('a bad line in a file: one line naming it, exit 1, nothing appended', async () => {
    const lines = readFileSync(exported, 'utf8').split('\n');
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, [lines[0], '{"position": 2, "streamName": "item-a"', ...lines.slice(1)].join('\n'));
    const run = await runCli(['events', 'import', bad], { EVENT_STORE_URL: log('bad') });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('pubstream: events import: line 2: not JSON (expected one exported event per line, as `pubstream events export` writes); nothing was appended\n');
    expect(await readLog('bad')).toEqual([]);

    writeFileSync(bad, [lines[0], JSON.stringify({ ...JSON.parse(lines[1] ?? '{}'), eventId: 7 })].join('\n'));
    const wrongShape = await runCli(['events', 'import', bad], { EVENT_STORE_URL: log('bad') });
    expect(wrongShape.code).toBe(1);
    expect(wrongShape.stderr).toMatch(/^pubstream: events import: line 2: eventId: .+ \(not an exported event\); nothing was appended\n$/);
    expect(await readLog('bad')).toEqual([]);
  }, 60_000);

  it('a file that cannot be read: one line, exit 1', async () => {
    const run = await runCli(['events', 'import', join(dir, 'missing.ndjson')], { EVENT_STORE_URL: log('missing') });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`pubstream: cannot read ${join(dir, 'missing.ndjson')}: ENOENT\n`);
  }, 60_000);
});
