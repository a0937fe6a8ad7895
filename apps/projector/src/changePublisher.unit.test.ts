import type { ChangeMessage } from '@pubstream/change-stream';
import type { EventStore, ReadAllOptions, RecordedEvent } from '@pubstream/event-store';
import { FencedError, type Checkpoint } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { nextChanges, runPublisher, type PublisherDeps } from './changePublisher.js';
import { decodeEvents } from './decodeEvents.js';
import { createKeyHashResolver } from './keyHashResolver.js';
import { createRecentBatches } from './recentBatches.js';
import { createPositionWatch } from './positionWatch.js';
import { silentLogger } from './projectorLogger.js';
import { itemEvent } from './testing/recordedEvents.js';

const logOf = (events: RecordedEvent[]): Pick<EventStore, 'readAll' | 'readStream'> => ({
  async *readAll({ after = 0, until = Infinity, maxCount = Infinity }: ReadAllOptions = {}) {
    yield* events.filter((e) => e.position > after && e.position <= until).slice(0, maxCount);
  },
  readStream: async (name) => events.filter((e) => e.streamName === name),
});

interface Fixture extends PublisherDeps {
  readonly sent: ChangeMessage[][];
  readonly checkpoints: Checkpoint[];
}

const fixture = (events: RecordedEvent[], overrides: Partial<PublisherDeps> = {}, applied = events.at(-1)?.position ?? 0): Fixture => {
  const sent: ChangeMessage[][] = [];
  const checkpoints: Checkpoint[] = [];
  const eventStore = logOf(events);
  return {
    eventStore,
    store: { apply: async (_ops, checkpoint) => { checkpoints.push(checkpoint); return []; } },
    changeStream: { publish: async (messages) => void sent.push([...messages]) },
    keyHashes: createKeyHashResolver(eventStore),
    checkpoint: 'projector:published',
    batchSize: 2,
    maxBytes: 100_000,
    lease: null,
    applied: createPositionWatch(applied),
    retry: { initialMs: 1, maxMs: 4 },
    logger: silentLogger,
    onSkip: () => {},
    onPublished: () => {},
    onState: () => {},
    sent,
    checkpoints,
    ...overrides,
  };
};

const versions = (batches: ChangeMessage[][]): string[] => batches.flat().map((m) => (m.kind === 'item' ? `${m.dataId}@${m.version}` : m.kind));

const runUntil = async (deps: PublisherDeps, from: number, done: () => boolean): Promise<void> => {
  const stop = new AbortController();
  const running = runPublisher(deps, from, stop.signal);
  const deadline = Date.now() + 2_000;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
  stop.abort();
  await running;
};

describe('publisher', () => {
  const log = [itemEvent(1, 'a'), itemEvent(2, 'b'), itemEvent(4, 'a', 1), itemEvent(5, 'b', 1), itemEvent(7, 'a', 2)];

  it('derives the changes of (published, applied] from the log, a bounded batch at a time', async () => {
    const deps = fixture(log, {}, 5);
    expect(await nextChanges(deps, 0, 5)).toMatchObject({ to: 2, messages: [{ dataId: 'a', version: 0, data: { n: 0 } }, { dataId: 'b', version: 0 }] });
    expect(await nextChanges(deps, 2, 5)).toMatchObject({ to: 5, messages: [{ dataId: 'a', version: 1, position: 4 }, { dataId: 'b', version: 1 }] });
    // A range without events still moves the cursor to its end.
    expect(await nextChanges(fixture(log), 5, 6)).toEqual({ to: 6, messages: [] });
  });

  it("uses the applier's own batch when it starts at the cursor, without reading the log", async () => {
    const recent = createRecentBatches();
    recent.add({ after: 0, to: 2, events: decodeEvents(log.slice(0, 2)) });
    const deps = fixture([], { recent }, 5);
    expect(await nextChanges(deps, 0, 5)).toMatchObject({ to: 2, messages: [{ dataId: 'a' }, { dataId: 'b' }] });
    // Anything else comes from the log (here: empty).
    expect(await nextChanges(deps, 2, 5)).toEqual({ to: 5, messages: [] });
  });

  it('cuts a batch after the message that crosses maxBytes', async () => {
    const big = [itemEvent(1, 'a', 0, { text: 'x'.repeat(300) }), itemEvent(2, 'b', 0, { text: 'y'.repeat(300) })];
    expect(await nextChanges(fixture(big, { maxBytes: 200 }), 0, 2)).toMatchObject({ to: 1, messages: [{ dataId: 'a' }] });
  });

  it('publishes every change in order from its cursor, storing the cursor after each batch', async () => {
    const deps = fixture(log);
    await runUntil(deps, 2, () => deps.checkpoints.at(-1)?.position === 7);
    expect(versions(deps.sent)).toEqual(['a@1', 'b@1', 'a@2']);
    expect(deps.checkpoints.map((c) => c.position)).toEqual([5, 7]);
  });

  it('waits for the applier, and announces what it applies next', async () => {
    const deps = fixture(log, {}, 2);
    const stop = new AbortController();
    const running = runPublisher(deps, 0, stop.signal);
    while (deps.checkpoints.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    expect(versions(deps.sent)).toEqual(['a@0', 'b@0']);
    deps.applied.advance(4);
    while (deps.checkpoints.at(-1)?.position !== 4) await new Promise((resolve) => setTimeout(resolve, 2));
    stop.abort();
    await running;
    expect(versions(deps.sent)).toEqual(['a@0', 'b@0', 'a@1']);
  });

  it('retries a failed publish (the broker is down) with the same batch, in order, nothing skipped', async () => {
    let failures = 3;
    const sent: ChangeMessage[][] = [];
    const states: string[] = [];
    const deps = fixture(log, {
      changeStream: { publish: async (messages) => { if (failures-- > 0) throw new Error('KafkaJSConnectionError'); sent.push([...messages]); } },
      onState: (state) => void states.push(state),
    });
    await runUntil(deps, 0, () => deps.checkpoints.at(-1)?.position === 7);
    expect(versions(sent)).toEqual(['a@0', 'b@0', 'a@1', 'b@1', 'a@2']);
    expect(states).toContain('retrying');
  });

  it('stops at once while a publish hangs, and rethrows FencedError when its cursor write is fenced', async () => {
    const hanging = fixture(log, { changeStream: { publish: () => new Promise(() => {}) } });
    const stop = new AbortController();
    const running = runPublisher(hanging, 0, stop.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    await running;
    expect(hanging.checkpoints).toEqual([]);
    const fenced = fixture(log, { store: { apply: async () => { throw new FencedError(); } } });
    await expect(runPublisher(fenced, 0, new AbortController().signal)).rejects.toBeInstanceOf(FencedError);
  });
});
