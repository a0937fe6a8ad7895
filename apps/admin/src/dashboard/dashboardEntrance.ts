import { randomBytes } from 'node:crypto';
import { isPubstreamError, NotFoundError } from '@pubstream/domain';
import { echoInput } from '@pubstream/http';
import type { Logger } from '@pubstream/observability';
import type { Context, Middleware } from 'koa';
import type { AuthThrottle } from '../authThrottle.js';
import { clientAddress } from '../clientAddress.js';
import { failurePage, redirectTo, refuseForeignOrigin, throttledSignIn } from './dashboardResponses.js';
import { isDashboardPath, isPublicDashboardRequest } from './dashboardPaths.js';
import { stateOf } from './dashboardState.js';
import { isSameOrigin } from './requestOrigin.js';
import { sessionIdOf } from './sessionCookie.js';
import type { SessionStore } from './sessionStore.js';
import { setSecurityHeaders } from './securityHeaders.js';

export interface EntranceDeps {
  readonly sessions: Pick<SessionStore, 'get'>;
  readonly throttle: Pick<AuthThrottle, 'blockedFor'>;
  readonly logger: Pick<Logger, 'error' | 'warn'>;
  /** The dashboard's pages (a router's middleware): reached only through the checks. */
  readonly pages: Middleware;
}

/**
 * Without a live session, a page view goes to the sign-in form; anything else is first refused
 * when it comes from another origin, then sent to the sign-in form too. Public requests and
 * signed-in ones pass. Returns false when it has answered.
 */
export const admitted = (ctx: Context): boolean => {
  if (stateOf(ctx).session || isPublicDashboardRequest(ctx.method, ctx.path)) return true;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !isSameOrigin(ctx)) refuseForeignOrigin(ctx);
  else redirectTo(ctx, '/dashboard/sign-in');
  return false;
};

const notFound = (ctx: Context) => new NotFoundError(`No dashboard page at ${echoInput(ctx.path)}`);

/** Runs the pages; every failure, an unknown page included, is answered as an HTML page. */
const answerPages = async (deps: EntranceDeps, ctx: Context): Promise<void> => {
  try {
    await deps.pages(ctx, async () => {
      throw notFound(ctx);
    });
    if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null)) throw notFound(ctx);
  } catch (error) {
    if (isPubstreamError(error) && error.status === 503) {
      deps.logger.warn({ err: error, method: ctx.method, url: ctx.path }, 'dashboard: backend unavailable');
      return failurePage(ctx, 503, error.message);
    }
    const fault = !isPubstreamError(error) || error.status >= 500;
    if (fault) deps.logger.error({ err: error, method: ctx.method, url: ctx.path }, 'dashboard request failed');
    failurePage(ctx, fault ? 500 : error.status, fault ? '' : error.message);
  }
};

/**
 * The one entrance of the dashboard (`/`, `/dashboard`, `/dashboard/*`; docs/dashboard.md), for
 * every request before any page: a fresh CSP nonce, the session from its cookie, the security
 * headers; a blocked address gets 429 first (even with a live session: otherwise guessing goes
 * on); then the session check for every page but the public ones, so a page added later is
 * protected without a check of its own (docs/security.md).
 */
export const dashboardEntrance =
  (deps: EntranceDeps): Middleware =>
  async (ctx, next) => {
    if (!isDashboardPath(ctx.path)) return next();
    const state = stateOf(ctx);
    state.nonce = randomBytes(16).toString('base64');
    state.session = deps.sessions.get(sessionIdOf(ctx));
    setSecurityHeaders(ctx, state.nonce);
    const blockedFor = await deps.throttle.blockedFor(clientAddress(ctx));
    if (blockedFor > 0) return throttledSignIn(ctx, blockedFor);
    if (!admitted(ctx)) return;
    await answerPages(deps, ctx);
  };
