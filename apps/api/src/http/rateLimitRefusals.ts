import type { Middleware } from 'koa';
import { Counter, type Registry } from 'prom-client';
import { RateLimitedError, type RateLimitReason } from '@pubstream/domain';

const PUBLIC_REASONS: readonly RateLimitReason[] = ['window', 'monthly_quota', 'streams_per_address', 'streams_per_key'];

/**
 * Counts the 429s of the public API by reason (`pubstream_rate_limit_refusals_total`,
 * docs/operations.md, "Metrics"): the per-key window, the plan's monthly quota, and the stream caps
 * per address and per key. Sits inside the error middleware, so it sees the error before it is
 * rendered, for every route /subscribe included.
 */
export const rateLimitRefusals = (registry: Registry): Middleware => {
  const refusals = new Counter({
    name: 'pubstream_rate_limit_refusals_total',
    help: 'Requests refused with 429, by reason (window, monthly_quota, streams_per_address, streams_per_key)',
    labelNames: ['reason'],
    registers: [registry],
  });
  // Every reason from the start: a rate of 0 rather than no data.
  for (const reason of PUBLIC_REASONS) refusals.inc({ reason }, 0);
  return async function countRefusals(ctx, next) {
    try {
      await next();
    } catch (error) {
      if (error instanceof RateLimitedError) refusals.inc({ reason: error.reason });
      throw error;
    }
  };
};
