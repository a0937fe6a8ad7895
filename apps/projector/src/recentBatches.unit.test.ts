import { describe, expect, it } from 'vitest';
import { decodeEvents } from './decodeEvents.js';
import { createRecentBatches } from './recentBatches.js';
import { itemEvent } from './testing/recordedEvents.js';

describe('recent batches', () => {
  it('finds the batch that starts at a position, and forgets the oldest beyond maxEvents', () => {
    const recent = createRecentBatches(3);
    const batch = (after: number, to: number) => ({ after, to, events: decodeEvents([itemEvent(to, `i${to}`)]) });
    recent.add(batch(0, 2));
    recent.add(batch(2, 5));
    expect(recent.startingAfter(2)?.to).toBe(5);
    expect(recent.startingAfter(1)).toBeUndefined();
    recent.add(batch(5, 6));
    recent.add(batch(6, 9));
    expect(recent.startingAfter(0)).toBeUndefined();
    expect(recent.startingAfter(6)?.to).toBe(9);
    recent.clear();
    expect(recent.startingAfter(6)).toBeUndefined();
  });
});
