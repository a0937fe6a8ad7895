import type Router from '@koa/router';
import { secretsEqual } from '@pubstream/access';
import type { Logger } from '@pubstream/observability';
import type { Context } from 'koa';
import type { AuthThrottle } from '../authThrottle.js';
import { clientAddress } from '../clientAddress.js';
import { redirectTo, refuseForeignOrigin, renderPage, throttledSignIn } from './dashboardResponses.js';
import { stateOf } from './dashboardState.js';
import { readForm } from './formBody.js';
import { guardedForm } from './formGuard.js';
import { isSameOrigin } from './requestOrigin.js';
import { sessionCookie } from './sessionCookie.js';
import type { SessionStore } from './sessionStore.js';
import { signInPage } from './signInPage.js';

export interface SignInDeps {
  readonly sessions: Pick<SessionStore, 'create' | 'destroy'>;
  readonly adminToken: string;
  /** Failed sign-ins count toward the same per-address block as wrong API tokens. */
  readonly throttle: Pick<AuthThrottle, 'recordFailure'>;
  readonly logger: Pick<Logger, 'warn'>;
  /** The session cookie's Secure flag (DashboardOptions.secureCookie). */
  readonly secureCookie?: 'auto' | boolean;
}

/** A wrong token: logged without it, counted against the address (which may start a block: 429), no session. */
const wrongToken = async (deps: SignInDeps, ctx: Context) => {
  const address = clientAddress(ctx);
  deps.logger.warn({ ip: address }, 'dashboard sign-in with a wrong admin token');
  const blockSeconds = await deps.throttle.recordFailure(address);
  if (blockSeconds > 0) return throttledSignIn(ctx, blockSeconds);
  stateOf(ctx).session = null;
  renderPage(ctx, 401, 'Sign in', signInPage({ error: 'That admin token is not correct. Check ADMIN_TOKEN and try again.', notice: null }));
};

const signIn = async (deps: SignInDeps, ctx: Context) => {
  // No session yet, so no CSRF token: the Origin check alone stops sign-in forgery.
  if (!isSameOrigin(ctx)) return refuseForeignOrigin(ctx);
  const form = await readForm(ctx);
  if (!secretsEqual(form.get('token') ?? '', deps.adminToken)) return wrongToken(deps, ctx);
  const previous = stateOf(ctx).session;
  if (previous) deps.sessions.destroy(previous.id);
  // A fresh id at every sign-in: a session id planted before sign-in is worthless.
  const session = deps.sessions.create();
  ctx.set('Set-Cookie', sessionCookie(ctx, session.id, null, deps.secureCookie));
  redirectTo(ctx, '/dashboard/keys');
};

const signOut = async (deps: SignInDeps, ctx: Context) => {
  const guarded = await guardedForm(ctx);
  if (!guarded) return;
  deps.sessions.destroy(guarded.session.id);
  ctx.set('Set-Cookie', sessionCookie(ctx, '', 0, deps.secureCookie));
  redirectTo(ctx, '/dashboard/sign-in?signedOut=1');
};

/** Sign-in with the admin token (a fresh session and its HttpOnly cookie), and sign-out. */
export const signInRoutes = (router: Router, deps: SignInDeps): void => {
  router.get('/dashboard/sign-in', (ctx) => {
    if (stateOf(ctx).session) return redirectTo(ctx, '/dashboard/keys');
    renderPage(ctx, 200, 'Sign in', signInPage({ error: null, notice: ctx.query.signedOut === '1' ? 'You are signed out.' : null }));
  });
  router.post('/dashboard/sign-in', (ctx) => signIn(deps, ctx));
  router.post('/dashboard/sign-out', (ctx) => signOut(deps, ctx));
};
