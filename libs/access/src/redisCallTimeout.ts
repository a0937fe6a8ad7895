/** A Redis call that did not answer in time (a frozen or overloaded Redis). */
export class RedisCallTimeoutError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = 'RedisCallTimeoutError';
  }
}

/**
 * `call`, or a RedisCallTimeoutError after `ms`. Our own timer rather than a client option: it
 * bounds the whole call, cluster routing included.
 */
export const withRedisTimeout = <T>(call: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    // When the timer is due, look at the socket once more first (setImmediate runs after the loop's
    // I/O poll): a process busy past the bound may have the reply waiting there, and timers run
    // before I/O (docs/operations.md, "Timeouts").
    const timer = setTimeout(() => setImmediate(() => reject(new RedisCallTimeoutError(ms))), ms);
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
