import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '@pubstream/domain';
import { createMissConfirmation, NOT_CAUGHT_UP_MESSAGE } from './missConfirmation.js';

/** An isCaughtUp whose answers the test gives, one pending call at a time. */
const scriptedCheck = () => {
  const pending: { resolve: (value: boolean) => void; reject: (error: unknown) => void }[] = [];
  return {
    isCaughtUp: () => new Promise<boolean>((resolve, reject) => pending.push({ resolve, reject })),
    get calls() {
      return pending.length;
    },
    answer: (index: number, value: boolean | Error) => (value instanceof Error ? pending[index]!.reject(value) : pending[index]!.resolve(value)),
  };
};
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('miss confirmation (unknown is not missing)', () => {
  it('passes when the read model is caught up, and is 503 with a clear message when it is not', async () => {
    await expect(createMissConfirmation(async () => true).confirm()).resolves.toBeUndefined();
    const refused = createMissConfirmation(async () => false).confirm();
    await expect(refused).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(refused).rejects.toThrow(NOT_CAUGHT_UP_MESSAGE);
  });

  it('is 503 when the read model cannot be asked, keeping the cause', async () => {
    const cause = new Error('socket closed');
    const refused = createMissConfirmation(() => Promise.reject(cause)).confirm();
    await expect(refused).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(refused).rejects.toMatchObject({ cause });
  });

  it('answers each miss with a check sent after it, one in flight and one queued however many misses come', async () => {
    const checks = scriptedCheck();
    const gate = createMissConfirmation(checks.isCaughtUp);
    // A miss before the flush: its check is sent now.
    const early = gate.confirm();
    await flush();
    expect(checks.calls).toBe(1);
    // Many misses while that check is in flight: they may have missed after it was sent, so they wait for the next one.
    const late = Array.from({ length: 50 }, () => gate.confirm());
    await flush();
    expect(checks.calls).toBe(1);
    // The first check read the store before the data was lost: it answers the early miss only.
    checks.answer(0, true);
    await expect(early).resolves.toBeUndefined();
    await flush();
    expect(checks.calls).toBe(2);
    checks.answer(1, false);
    for (const miss of late) await expect(miss).rejects.toThrow(NOT_CAUGHT_UP_MESSAGE);
  });

  it('with waitMs, asks again until the read model is caught up, and gives up with a 503 after that long', async () => {
    let caughtUpAfter = 3;
    const patient = createMissConfirmation(async () => --caughtUpAfter <= 0, { waitMs: 5_000 });
    await expect(patient.confirm()).resolves.toBeUndefined();
    expect(caughtUpAfter).toBe(0);
    const started = performance.now();
    await expect(createMissConfirmation(async () => false, { waitMs: 250 }).confirm()).rejects.toThrow(NOT_CAUGHT_UP_MESSAGE);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('a failed check does not block the next one', async () => {
    const checks = scriptedCheck();
    const gate = createMissConfirmation(checks.isCaughtUp);
    const first = gate.confirm();
    const second = gate.confirm();
    await flush();
    checks.answer(0, new Error('timeout'));
    await expect(first).rejects.toBeInstanceOf(ServiceUnavailableError);
    await flush();
    checks.answer(1, true);
    await expect(second).resolves.toBeUndefined();
    // Nothing in flight: the next miss starts its own check at once.
    const third = gate.confirm();
    await flush();
    expect(checks.calls).toBe(3);
    checks.answer(2, true);
    await expect(third).resolves.toBeUndefined();
  });
});
