import { createMemoryStreamSlots, createMemoryStreamSlotStore } from './memoryStreamSlots.js';
import { testStreamSlotsContract } from './testing/streamSlotsContract.js';

// A fake clock: expiry is exact, no test waits.
testStreamSlotsContract(
  'memory',
  () => {
    const store = createMemoryStreamSlotStore();
    let now = 1_000_000;
    return {
      node: (ttlMs) => createMemoryStreamSlots({ store, ttlMs, now: () => now }),
      advance: async (ms) => {
        now += ms;
      },
    };
  },
  { ttlMs: 3_000 },
);
