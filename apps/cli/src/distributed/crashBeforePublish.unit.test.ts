import { describe, expect, it } from 'vitest';
import { createInProcessChangeStream, type ChangeMessage } from '@pubstream/change-stream';
import { projectorNodeOptionsFromEnv } from './config.js';
import { crashBeforePublish, FAULT_EXIT_CODE } from './crashBeforePublish.js';

const message = { kind: 'plan', action: 'update', version: 1, position: 1 } as unknown as ChangeMessage;

describe('crashBeforePublish (crash-test hook)', () => {
  it('returns the change stream itself when the probability is 0', () => {
    const stream = createInProcessChangeStream();
    expect(crashBeforePublish(stream, 0, () => {})).toBe(stream);
  });

  it('exits with the fault code instead of publishing when the draw is under the probability', async () => {
    const stream = createInProcessChangeStream();
    const received: ChangeMessage[] = [];
    await stream.subscribe({ onMessages: (messages) => received.push(...messages) });
    const exits: number[] = [];
    let crashes = 0;
    const draws = [0.9, 0.1];
    const faulty = crashBeforePublish(stream, 0.5, () => crashes++, () => draws.shift() ?? 1, (code) => exits.push(code));
    await faulty.publish([message]);
    expect(received).toHaveLength(1);
    void faulty.publish([message]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toHaveLength(1);
    expect(crashes).toBe(1);
    expect(exits).toEqual([FAULT_EXIT_CODE]);
  });

  it('never fires on an empty publish (the checkpoint-only batches)', async () => {
    const exits: number[] = [];
    const faulty = crashBeforePublish(createInProcessChangeStream(), 1, () => {}, () => 0, (code) => exits.push(code));
    await faulty.publish([]);
    expect(exits).toEqual([]);
  });
});

describe('projectorNodeOptionsFromEnv', () => {
  it('defaults to a 2 s lease and no fault injection', () => {
    expect(projectorNodeOptionsFromEnv({})).toEqual({ leaseTtlMs: 2_000, exitBeforePublishProbability: 0 });
  });

  it('refuses values out of range with a line naming the variable', () => {
    expect(() => projectorNodeOptionsFromEnv({ PROJECTOR_LEASE_TTL_MS: '10' })).toThrow(/PROJECTOR_LEASE_TTL_MS/);
    expect(() => projectorNodeOptionsFromEnv({ PUBSTREAM_FAULT_EXIT_BEFORE_PUBLISH: '2' })).toThrow(/PUBSTREAM_FAULT_EXIT_BEFORE_PUBLISH/);
    expect(projectorNodeOptionsFromEnv({ PROJECTOR_LEASE_TTL_MS: '1500' }).leaseTtlMs).toBe(1_500);
  });
});
