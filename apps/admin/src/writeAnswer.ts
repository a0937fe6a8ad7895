import { isPubstreamError, type StoredResponse } from '@pubstream/domain';
import type { Context } from 'koa';

/** Seconds a client is asked to wait after a 503 from a write that committed nothing. */
export const WRITE_RETRY_AFTER_SECONDS = 1;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Sends a write's answer (docs/admin-api.md). `acceptedAt` set: the write is committed at that
 * log position but the read model has not confirmed it, so 202 with the position in the body and
 * in `X-Position`, beside the resource as answered. Otherwise `X-Position` is `position`, the log
 * position of the write's last event, when known (docs/public-api.md, read-your-writes with
 * `?minPosition=`); a replayed answer and a write that appended nothing have none.
 */
export const sendWriteAnswer = (ctx: Context, response: StoredResponse, acceptedAt: number | null, replayed: boolean, position: number | null = null): void => {
  if (replayed) ctx.set('Idempotent-Replayed', 'true');
  if (acceptedAt === null) {
    if (position !== null) ctx.set('X-Position', String(position));
    ctx.status = response.status;
    if (response.body !== null) ctx.body = response.body;
    return;
  }
  ctx.set('X-Position', String(acceptedAt));
  ctx.status = 202;
  ctx.body = { ...(isObject(response.body) ? response.body : {}), position: acceptedAt };
};

/** Runs a write; a 503 (nothing committed, a backend unavailable) carries Retry-After. */
export const withRetryAfter = async (ctx: Context, run: () => Promise<void>): Promise<void> => {
  try {
    await run();
  } catch (error) {
    if (isPubstreamError(error) && error.status === 503) ctx.set('Retry-After', String(WRITE_RETRY_AFTER_SECONDS));
    throw error;
  }
};
