import { describe, expect, it } from 'vitest';
import { createConnectionCounts, createIpcConnectionGate } from './ipcConnectionGate.js';
import { createMemoryChannelPair } from './memoryChannelPair.js';
import { createIpcClient, serveIpc } from './workerIpc.js';

describe('per-address connection counts of the API workers', () => {
  it('given two workers, then one address gets at most the cap across both', async () => {
    const counts = createConnectionCounts(3);
    const gates = [counts.forWorker(), counts.forWorker()].map((worker) => {
      const pair = createMemoryChannelPair();
      serveIpc(pair.primary, worker.handlers);
      return createIpcConnectionGate(createIpcClient(pair.worker, { timeoutMs: 1_000 }));
    });
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push(await gates[i % 2]!.admit('10.0.0.1'));
    expect(verdicts).toEqual([true, true, true, false, false, false]);
    expect(await gates[0]!.admit('10.0.0.2')).toBe(true);
  });

  it('given a worker that exits, then its connections give their places back', () => {
    const counts = createConnectionCounts(2);
    const [gone, alive] = [counts.forWorker(), counts.forWorker()];
    const admit = (worker: typeof gone) => (worker.handlers['connections.admit'] as (address: string) => boolean)('10.0.0.1');
    expect([admit(gone), admit(gone), admit(alive)]).toEqual([true, true, false]);
    gone.forget();
    expect(counts.count('10.0.0.1')).toBe(0);
    expect([admit(alive), admit(alive), admit(alive)]).toEqual([true, true, false]);
  });

  it('given a release the worker never held, then nothing of another worker is given back', () => {
    const counts = createConnectionCounts(2);
    const [a, b] = [counts.forWorker(), counts.forWorker()];
    (a.handlers['connections.admit'] as (address: string) => boolean)('10.0.0.1');
    (b.handlers['connections.release'] as (address: string) => void)('10.0.0.1');
    expect(counts.count('10.0.0.1')).toBe(1);
  });
});
