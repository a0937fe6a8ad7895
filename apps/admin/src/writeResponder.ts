import { ConcurrencyError, idempotencyDecider, isPubstreamError, replayFor, type IdempotentReplay, type StoredResponse } from '@pubstream/domain';
import type { Logger } from '@pubstream/observability';
import type { Context } from 'koa';
import type { WriteOptions, WriteResult, Written } from './writeOutcome.js';
import type { CommandHandler } from './commandHandler.js';
import { idempotencyStreamOf, parseIdempotencyKey } from './idempotency.js';
import { requestFingerprint } from './requestFingerprint.js';

/** Seconds a client is asked to wait after a 503 from a write that committed nothing. */
export const WRITE_RETRY_AFTER_SECONDS = 1;

const param = (ctx: Context): Readonly<Record<string, string>> => (ctx.params ?? {}) as Record<string, string>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sends a write's answer; a committed write the read model has not confirmed is 202 with its position. */
const send = (ctx: Context, response: StoredResponse, acceptedAt: number | null, replayed: boolean): void => {
  if (replayed) ctx.set('Idempotent-Replayed', 'true');
  if (acceptedAt === null) {
    ctx.status = response.status;
    if (response.body !== null) ctx.body = response.body;
    return;
  }
  // The name issue 17 puts on every write; here only on 202, where the position is the news.
  ctx.set('X-Position', String(acceptedAt));
  ctx.status = 202;
  ctx.body = { ...(isObject(response.body) ? response.body : {}), position: acceptedAt };
};

const sendReplay = (ctx: Context, replay: IdempotentReplay): void => send(ctx, replay.response, replay.acceptedAt, true);

/** Answers one write request: `perform` runs it, `answer` says what it answers (see createWriteResponder). */
export type WriteResponder = <T>(
  ctx: Context,
  body: unknown,
  perform: (options: WriteOptions<T>) => Promise<Written<T>>,
  answer: (result: WriteResult<T>) => StoredResponse,
) => Promise<void>;

/**
 * Runs admin writes over HTTP with the guarantees of docs/admin-api.md:
 * - an Idempotency-Key is bound to the request's fingerprint; another request with it is 422
 *   and writes nothing, an exact retry gets the recorded answer (from the log, not the read model);
 * - a committed write is never answered as a failure: when the read model cannot confirm it,
 *   202 with its position and the resource built from its events;
 * - a write that committed nothing because a backend is unavailable is 503 with Retry-After.
 */
export const createWriteResponder = (deps: { commands: CommandHandler; logger: Logger }) => {
  const recordedReplay = async (idempotencyKey: string, fingerprint: string): Promise<IdempotentReplay | null> =>
    replayFor(await deps.commands.load(idempotencyDecider, idempotencyStreamOf(idempotencyKey)), fingerprint);

  /** Notes a 202 in the key's record, so retries answer 202 too; best effort (the answer stands). */
  const markAccepted = async (idempotencyKey: string, position: number): Promise<void> => {
    try {
      await deps.commands.handle(idempotencyDecider, idempotencyStreamOf(idempotencyKey), { type: 'MarkAccepted', position });
    } catch (error) {
      deps.logger.warn({ err: error, position }, 'could not note a 202 answer in its idempotency record; a retry will answer the committed status');
    }
  };

  const run = async <T>(
    ctx: Context,
    body: unknown,
    perform: (options: WriteOptions<T>) => Promise<Written<T>>,
    answer: (result: WriteResult<T>) => StoredResponse,
  ): Promise<void> => {
    const idempotencyKey = parseIdempotencyKey(ctx.headers['idempotency-key']);
    if (idempotencyKey === undefined) {
      const written = await perform({});
      return send(ctx, answer(written), written.visible ? null : written.position, false);
    }
    const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? ctx.path;
    const fingerprint = requestFingerprint({ method: ctx.method, route, params: param(ctx), body });
    const earlier = await recordedReplay(idempotencyKey, fingerprint);
    if (earlier) return sendReplay(ctx, earlier);
    let written: Written<T>;
    try {
      written = await perform({ idempotencyKey, binding: { fingerprint, method: ctx.method, path: ctx.path, answer } });
    } catch (error) {
      // Another request bound the key between our check and our append: answer as it says.
      const replay = error instanceof ConcurrencyError && error.streamName === idempotencyStreamOf(idempotencyKey) ? await recordedReplay(idempotencyKey, fingerprint) : null;
      if (replay) return sendReplay(ctx, replay);
      throw error;
    }
    const acceptedAt = written.visible ? null : written.position;
    if (acceptedAt !== null && !written.replayed) await markAccepted(idempotencyKey, acceptedAt);
    send(ctx, answer(written), acceptedAt, written.replayed);
  };

  /** `run`, with Retry-After on a 503 (nothing was committed; retrying soon is the right move). */
  const respond: WriteResponder = async (ctx, body, perform, answer) => {
    try {
      await run(ctx, body, perform, answer);
    } catch (error) {
      if (isPubstreamError(error) && error.status === 503) ctx.set('Retry-After', String(WRITE_RETRY_AFTER_SECONDS));
      throw error;
    }
  };
  return respond;
};
