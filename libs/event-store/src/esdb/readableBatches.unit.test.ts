import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readableBatches } from './readableBatches.js';

describe('readableBatches', () => {
  it('hands over what is buffered, at most maxSize at a time, then ends with the stream', async () => {
    const stream = new PassThrough({ objectMode: true });
    for (let i = 1; i <= 5; i += 1) stream.write(i);
    stream.end();
    const batches: number[][] = [];
    for await (const batch of readableBatches<number>(stream, 2)) batches.push(batch);
    expect(batches.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(2);
  });

  it('waits for items that arrive later', async () => {
    const stream = new PassThrough({ objectMode: true });
    const received: number[] = [];
    const reading = (async () => {
      for await (const batch of readableBatches<number>(stream, 10)) received.push(...batch);
    })();
    await new Promise((resolve) => setImmediate(resolve));
    stream.write(1);
    await new Promise((resolve) => setImmediate(resolve));
    stream.write(2);
    stream.end();
    await reading;
    expect(received).toEqual([1, 2]);
  });

  it('throws the stream error after delivering what came before it', async () => {
    const stream = new PassThrough({ objectMode: true });
    stream.write('a');
    const failure = new Error('connection lost');
    const received: string[] = [];
    const reading = (async () => {
      for await (const batch of readableBatches<string>(stream, 10)) {
        received.push(...batch);
        stream.destroy(failure);
      }
    })();
    await expect(reading).rejects.toBe(failure);
    expect(received).toEqual(['a']);
  });
});
