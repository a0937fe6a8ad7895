import { describe, expect, it } from 'vitest';
import { createReadYourWrites } from './readYourWrites.js';

const withCheckpoint = (getCheckpoint: () => Promise<number>) => ({ getCheckpoint });

describe('read-your-writes', () => {
  it('is true once the checkpoint has reached the position, and for writes that appended nothing', async () => {
    let checkpoint = 3;
    const wait = createReadYourWrites({ checkpoints: withCheckpoint(async () => checkpoint++), checkpointName: 'projector', timeoutMs: 5_000, pollIntervalMs: 1 });
    expect(await wait(5)).toBe(true);
    expect(await wait(null)).toBe(true);
  });

  it('is false, never an error, when the read model keeps failing, and reports the last error', async () => {
    const unconfirmed: unknown[] = [];
    const wait = createReadYourWrites({
      checkpoints: withCheckpoint(async () => {
        throw new Error('connection refused');
      }),
      checkpointName: 'projector',
      timeoutMs: 50,
      pollIntervalMs: 5,
      onUnconfirmed: (position, error) => unconfirmed.push([position, (error as Error).message]),
    });
    expect(await wait(7)).toBe(false);
    expect(unconfirmed).toEqual([[7, 'connection refused']]);
  });

  it('is false, not stuck, when the read model never answers', async () => {
    const wait = createReadYourWrites({ checkpoints: withCheckpoint(() => new Promise<number>(() => undefined)), checkpointName: 'projector', timeoutMs: 50 });
    expect(await wait(7)).toBe(false);
  });

  it('is false when an in-process projector fails or hangs instead of answering', async () => {
    const failing = createReadYourWrites({ checkpoints: withCheckpoint(async () => 0), projector: { waitFor: async () => Promise.reject(new Error('stopped')) }, checkpointName: 'p', timeoutMs: 50 });
    const hanging = createReadYourWrites({ checkpoints: withCheckpoint(async () => 0), projector: { waitFor: () => new Promise<boolean>(() => undefined) }, checkpointName: 'p', timeoutMs: 50 });
    expect(await failing(7)).toBe(false);
    expect(await hanging(7)).toBe(false);
  });
});
