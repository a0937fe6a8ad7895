import type { Readable } from 'node:stream';

/**
 * Reads an object-mode stream as batches: each batch is whatever is buffered when the consumer
 * asks (at least one item, at most `maxSize`). While the consumer is busy the stream's own
 * backpressure holds the producer. Ends when the stream ends; throws the stream's error.
 */
export async function* readableBatches<T>(stream: Readable, maxSize: number): AsyncGenerator<T[]> {
  let failure: unknown;
  let finished = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
  };
  const onError = (error: unknown): void => {
    failure ??= error;
    notify();
  };
  const onFinish = (): void => {
    finished = true;
    notify();
  };
  stream.on('readable', notify);
  stream.on('error', onError);
  stream.on('end', onFinish);
  stream.on('close', onFinish);
  try {
    for (;;) {
      const batch: T[] = [];
      while (batch.length < maxSize) {
        const item = stream.read() as T | null;
        if (item === null) break;
        batch.push(item);
      }
      if (batch.length > 0) {
        yield batch;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (finished) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    stream.off('readable', notify);
    stream.off('end', onFinish);
    stream.off('close', onFinish);
    // Keep swallowing late errors (a cancelled gRPC call reports one): an unhandled 'error' would crash the process.
    stream.off('error', onError);
    stream.on('error', () => undefined);
  }
}
