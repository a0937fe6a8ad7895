import { describe, expect, it } from 'vitest';
import type { AppendResult, StreamAppend } from '../eventStore.js';
import { PartialAppendError } from '../partialAppendError.js';
import { type AppendOne, appendAllInTurn, appendEachInTurn } from './sequentialAppends.js';

const entry = (streamName: string): StreamAppend => ({ streamName, events: [{ type: 'T', data: null }], expectedRevision: 'any' });

/** Appends in turn, failing the streams named in `failing`; records the order of calls. */
function appender(failing: Record<string, unknown>) {
  const calls: string[] = [];
  let position = 0;
  const appendOne: AppendOne = async ({ streamName }) => {
    calls.push(streamName);
    if (streamName in failing) throw failing[streamName];
    position += 1;
    return { nextRevision: 0, position };
  };
  return { appendOne, calls };
}

describe('appendEachInTurn', () => {
  it('given a failing entry, then the others are still appended, in order, and each outcome reported', async () => {
    const { appendOne, calls } = appender({ b: new Error('conflict'), c: 'not an error' });
    const outcomes = await appendEachInTurn(appendOne, [entry('a'), entry('b'), entry('c'), entry('d')]);
    expect(calls).toEqual(['a', 'b', 'c', 'd']);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, true]);
    expect(outcomes[1]).toEqual({ ok: false, error: new Error('conflict') });
    expect(outcomes[2]).toEqual({ ok: false, error: new Error('not an error') });
    expect(outcomes[3]).toEqual({ ok: true, result: { nextRevision: 0, position: 2 } });
  });
});

describe('appendAllInTurn', () => {
  it('given every entry succeeds, then every result in order', async () => {
    const { appendOne } = appender({});
    expect((await appendAllInTurn(appendOne, [entry('a'), entry('b')])).map((r) => r.position)).toEqual([1, 2]);
  });

  it('given the first entry fails, then its error as is and nothing more is tried', async () => {
    const conflict = new Error('conflict');
    const { appendOne, calls } = appender({ a: conflict });
    await expect(appendAllInTurn(appendOne, [entry('a'), entry('b')])).rejects.toBe(conflict);
    expect(calls).toEqual(['a']);
  });

  it('given a later entry fails, then a PartialAppendError listing what was written, and nothing after it', async () => {
    const { appendOne, calls } = appender({ b: new Error('conflict') });
    const error = await appendAllInTurn(appendOne, [entry('a'), entry('b'), entry('c')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialAppendError);
    expect((error as PartialAppendError).written).toEqual<AppendResult[]>([{ nextRevision: 0, position: 1 }]);
    expect(calls).toEqual(['a', 'b']);
  });
});
