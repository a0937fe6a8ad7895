import type { StoredResponse } from '@pubstream/domain';
import type { Context } from 'koa';
import { parseIdempotencyKey } from './idempotency.js';
import type { IdempotencyRecords } from './idempotencyRecords.js';
import { requestFingerprint } from './requestFingerprint.js';
import { sendWriteAnswer, withRetryAfter } from './writeAnswer.js';
import type { WriteOptions, WriteResult, Written } from './writeOutcome.js';

/** Answers one write request: `perform` runs it, `answer` says what it answers (see createWriteResponder). */
export type WriteResponder = <T>(
  ctx: Context,
  body: unknown,
  perform: (options: WriteOptions<T>) => Promise<Written<T>>,
  answer: (result: WriteResult<T>) => StoredResponse,
) => Promise<void>;

/** What an Idempotency-Key is bound to: the matched route and its decoded parameters, not the raw path. */
export const fingerprintOf = (ctx: Context, body: unknown): string =>
  requestFingerprint({ method: ctx.method, route: (ctx as { _matchedRoute?: string })._matchedRoute ?? ctx.path, params: (ctx.params ?? {}) as Record<string, string>, body });

/**
 * Runs admin writes over HTTP with the guarantees of docs/admin-api.md:
 * - an Idempotency-Key is bound to the request's fingerprint; another request with it is 422
 *   and writes nothing, an exact retry gets the recorded answer (from the log, not the read model);
 * - a committed write is never answered as a failure: when the read model cannot confirm it,
 *   202 with its position and the resource built from its events;
 * - a write that committed nothing because a backend is unavailable is 503 with Retry-After.
 */
export const createWriteResponder = (records: IdempotencyRecords): WriteResponder => {
  const run = async <T>(ctx: Context, body: unknown, perform: (options: WriteOptions<T>) => Promise<Written<T>>, answer: (result: WriteResult<T>) => StoredResponse) => {
    const idempotencyKey = parseIdempotencyKey(ctx.headers['idempotency-key']);
    if (idempotencyKey === undefined) {
      const written = await perform({});
      return sendWriteAnswer(ctx, answer(written), written.visible ? null : written.position, false, written.position);
    }
    const fingerprint = fingerprintOf(ctx, body);
    const earlier = await records.replay(idempotencyKey, fingerprint);
    if (earlier) return sendWriteAnswer(ctx, earlier.response, earlier.acceptedAt, true);
    let written: Written<T>;
    try {
      written = await perform({ idempotencyKey, binding: { fingerprint, method: ctx.method, path: ctx.path, answer } });
    } catch (error) {
      // Another request bound the key between our check and our append: answer as its record says.
      const replay = records.isTaken(error, idempotencyKey) ? await records.replay(idempotencyKey, fingerprint) : null;
      if (replay) return sendWriteAnswer(ctx, replay.response, replay.acceptedAt, true);
      throw error;
    }
    const acceptedAt = written.visible ? null : written.position;
    if (acceptedAt !== null && !written.replayed) await records.markAccepted(idempotencyKey, acceptedAt);
    sendWriteAnswer(ctx, answer(written), acceptedAt, written.replayed, written.replayed ? null : written.position);
  };
  return (ctx, body, perform, answer) => withRetryAfter(ctx, () => run(ctx, body, perform, answer));
};
