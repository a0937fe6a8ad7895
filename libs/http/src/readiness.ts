import type { Context } from 'koa';
import type { z } from 'zod';
import type { notReadyBodySchema, readyBodySchema } from './openapi/operationsContracts.js';
import { statusName } from './statusName.js';

/** One dependency /readyz asks about. */
export interface ReadinessCheck {
  /** The name in the report (`readModel`, `changeStream`, `eventStore`). */
  readonly name: string;
  /**
   * True: the node cannot serve without it (a failure is 503). False: it serves what it can
   * without it (a failure only makes the node `degraded`, still 200, so that a load balancer keeps
   * sending it what it can answer).
   */
  readonly required: boolean;
  /** Resolves when the dependency answers; rejects with why not. */
  probe(): Promise<void>;
}

/** What /readyz answers. */
export interface ReadinessReport {
  readonly status: 200 | 503;
  /** As the OpenAPI documents describe it (operationsContracts.ts). */
  readonly body: z.output<typeof readyBodySchema> | z.output<typeof notReadyBodySchema>;
}

/** The outcome of one check: null when it passed, else why it failed. */
export interface CheckOutcome {
  readonly name: string;
  readonly required: boolean;
  readonly failure: string | null;
}

/** Why a probe failed, in a few words: the innermost cause's message (`Redis did not answer within 1000 ms`). */
export const failureText = (error: unknown): string => {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause instanceof Error; depth++) current = current.cause;
  return current instanceof Error ? current.message : String(current);
};

/**
 * The /readyz answer from the checks' outcomes (docs/operations.md, "Readiness"): `draining`
 * (503) while the process leaves; `unavailable` (503, `{error, message}` naming what fails) when a
 * required dependency fails; `degraded` (200) when only an optional one does; else `ready` (200).
 * Every check is listed as `ok` or `failing: <why>`.
 */
export const summarizeReadiness = (outcomes: readonly CheckOutcome[], draining: boolean): ReadinessReport => {
  if (draining) return { status: 503, body: { error: statusName(503), message: 'This server is shutting down', status: 'draining' } };
  const checks = Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome.failure === null ? 'ok' : `failing: ${outcome.failure}`]));
  const blocking = outcomes.filter((outcome) => outcome.failure !== null && outcome.required);
  if (blocking.length > 0) {
    const message = `Not ready: ${blocking.map((outcome) => `${outcome.name} failing (${outcome.failure})`).join('; ')}`;
    return { status: 503, body: { error: statusName(503), message, status: 'unavailable', checks } };
  }
  const degraded = outcomes.some((outcome) => outcome.failure !== null);
  return { status: 200, body: { status: degraded ? 'degraded' : 'ready', checks } };
};

/** A probe's outcome, bounded by `timeoutMs` whatever the probe does. */
const outcomeOf = (check: ReadinessCheck, timeoutMs: number): Promise<CheckOutcome> =>
  new Promise((resolve) => {
    const settle = (failure: string | null) => {
      clearTimeout(timer);
      resolve({ name: check.name, required: check.required, failure });
    };
    const timer = setTimeout(() => settle(`no answer within ${timeoutMs} ms`), timeoutMs);
    check.probe().then(
      () => settle(null),
      (error: unknown) => settle(failureText(error)),
    );
  });

export interface Readiness {
  report(): Promise<ReadinessReport>;
}

/** Runs every check at once, each bounded by `timeoutMs`; none at all while draining. */
export const createReadiness = (options: { readonly checks: readonly ReadinessCheck[]; readonly timeoutMs: number; readonly drain?: { readonly draining: boolean } }): Readiness => ({
  async report() {
    if (options.drain?.draining) return summarizeReadiness([], true);
    const outcomes = await Promise.all(options.checks.map((check) => outcomeOf(check, options.timeoutMs)));
    return summarizeReadiness(outcomes, options.drain?.draining ?? false);
  },
});

/** Answers a readiness report on a Koa context: JSON, `Retry-After: 1` with a 503, never cached. */
export const respondReadiness = (ctx: Context, report: ReadinessReport): void => {
  ctx.status = report.status;
  ctx.set('Cache-Control', 'no-store');
  if (report.status === 503) ctx.set('Retry-After', '1');
  ctx.body = report.body;
};
