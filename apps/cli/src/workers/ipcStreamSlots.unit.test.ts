import { createMemoryStreamSlotStore } from '@pubstream/access';
import { describe, expect, it } from 'vitest';
import { createIpcStreamSlots, workerStreamSlots } from './ipcStreamSlots.js';
import { createMemoryChannelPair } from './memoryChannelPair.js';
import { createIpcClient, serveIpc } from './workerIpc.js';

const workers = (count: number) => {
  const store = createMemoryStreamSlotStore();
  const nodes = Array.from({ length: count }, (_, i) => {
    const pair = createMemoryChannelPair();
    const primarySide = workerStreamSlots(store, `worker-${i + 1}`);
    serveIpc(pair.primary, primarySide.handlers);
    return { slots: createIpcStreamSlots(createIpcClient(pair.worker, { timeoutMs: 1_000 })), forget: primarySide.forget };
  });
  return nodes;
};

describe('IPC stream slots', () => {
  it('holds the per-key cap across workers and frees a slot on release', async () => {
    const [a, b] = workers(2) as [ReturnType<typeof workers>[0], ReturnType<typeof workers>[0]];
    await expect(a.slots.acquire('key', 's1', 2)).resolves.toBe(true);
    await expect(b.slots.acquire('key', 's2', 2)).resolves.toBe(true);
    await expect(b.slots.acquire('key', 's3', 2)).resolves.toBe(false);
    await expect(a.slots.count('key')).resolves.toBe(2);
    await a.slots.release('key', 's1');
    await expect(b.slots.acquire('key', 's3', 2)).resolves.toBe(true);
    await b.slots.refresh();
    await expect(a.slots.count('key')).resolves.toBe(2);
  });

  it('frees every slot of a worker that exited at once, and only those', async () => {
    const [a, b] = workers(2) as [ReturnType<typeof workers>[0], ReturnType<typeof workers>[0]];
    await a.slots.acquire('key', 's1', 3);
    await a.slots.acquire('key', 's2', 3);
    await b.slots.acquire('key', 's3', 3);
    a.forget();
    await expect(b.slots.count('key')).resolves.toBe(1);
    await expect(b.slots.acquire('key', 's4', 2)).resolves.toBe(true);
    await expect(b.slots.acquire('key', 's5', 2)).resolves.toBe(false);
  });
});
