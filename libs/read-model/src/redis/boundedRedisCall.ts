import { ServiceUnavailableError } from '@pubstream/domain';
import { ErrorReply } from 'redis';

/** A Redis command that got no answer in time: a frozen, overloaded or unreachable Redis. */
export class RedisTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = 'RedisTimeoutError';
  }
}

// Server replies that mean "not now" rather than "wrong": loading a dump, busy with a script, no master.
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY)\b/;

/**
 * The read-model adapter's translation of Redis failures (docs/read-models.md, "Connecting"):
 * everything that says Redis cannot answer now (closed or offline client, lost socket, timeout,
 * the replies above) becomes ServiceUnavailableError, which every edge answers 503 with
 * Retry-After; a reply about the command itself (a Lua error, NOSCRIPT) stays as it is.
 */
export const asUnavailable = (error: unknown): unknown =>
  error instanceof ErrorReply && !UNAVAILABLE_REPLY.test(error.message) ? error : new ServiceUnavailableError(undefined, { cause: error });

/**
 * `call`, or `mapError(new RedisTimeoutError(ms))` after `ms`; its own failures through
 * `mapError` too. Our own timer because node-redis stops a command's `timeout` once the command is
 * written to the socket: against a frozen Redis (SIGSTOP) that is at once, and the reply is then
 * awaited forever. A command that timed out still gets its reply later; node-redis matches replies
 * in order, so nothing is mixed up. One promise and one timer per call: this is on every request's
 * path (the read model, the rate limiter and the stream slots use it).
 */
export const withRedisTimeout = <T>(call: Promise<T>, ms: number, mapError: (error: unknown) => unknown = (error) => error): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    // When the timer is due, look at the socket once more before giving up (setImmediate runs after
    // the loop's I/O poll): if this process was busy past the bound, the reply may be waiting there,
    // and timers run before I/O. Without this a healthy Redis was answered 503 on a starved machine
    // (docs/operations.md, "Timeouts").
    const timer = setTimeout(() => setImmediate(() => reject(mapError(new RedisTimeoutError(ms)))), ms);
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(mapError(error));
      },
    );
  });

/** `call`, bounded by `timeoutMs` (none when undefined), its failures translated by `asUnavailable`. */
export const boundedRedisCall = <T>(call: Promise<T>, timeoutMs: number | undefined): Promise<T> =>
  timeoutMs === undefined ? call.catch((error: unknown) => Promise.reject(asUnavailable(error))) : withRedisTimeout(call, timeoutMs, asUnavailable);
