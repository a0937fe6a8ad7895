import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import { secretsEqual } from '@pubstream/access';
import { isPubstreamError, NotFoundError, planNameSchema } from '@pubstream/domain';
import { echoInput } from '@pubstream/http';
import type { Context, Middleware } from 'koa';
import { clientAddress } from '../clientAddress.js';
import { usageReport } from '../usageReport.js';
import { collectionsPage } from './collectionsPage.js';
import { failurePage } from './failurePage.js';
import type { DashboardContext } from './dashboardContext.js';
import { isDashboardPath, isPublicDashboardRequest } from './dashboardPaths.js';
import { FAVICON } from './favicon.js';
import { readForm } from './formBody.js';
import { html, type HtmlPart } from './html.js';
import { emptyKeyForm, parseKeyForm, type KeyFormErrors, type KeyFormValues } from './keyForm.js';
import { keyDeletePage, keyEditPage, keysPage } from './keysPage.js';
import { page, type Section } from './layout.js';
import { planPage } from './planPage.js';
import { isSameOrigin } from './requestOrigin.js';
import { sessionCookie, sessionIdOf } from './sessionCookie.js';
import { createSessionStore, type Session, type SessionStoreOptions } from './sessionStore.js';
import { signInPage, tooManySignInsMessage } from './signInPage.js';
import { usagePage } from './usagePage.js';

export interface DashboardOptions {
  /**
   * The session cookie's Secure flag: `auto` (default) sets it when the request came over HTTPS,
   * directly or through a proxy that sends `X-Forwarded-Proto: https`; `true` always sets it.
   */
  readonly secureCookie?: 'auto' | boolean;
  readonly session?: Omit<SessionStoreOptions, 'now'>;
}

interface DashboardState {
  nonce: string;
  session: Session | null;
}

const stateOf = (ctx: Context): DashboardState => ctx.state as DashboardState;

/** The session of a signed-in page; the entrance has already sent every request without one to sign in. */
const sessionOf = (ctx: Context): Session => {
  const session = stateOf(ctx).session;
  if (!session) throw new Error('A dashboard page that needs a session was reached without one');
  return session;
};

/**
 * The operator dashboard on the admin port: `/` and `/dashboard/*` (docs/dashboard.md). Sign-in
 * with the admin token, an HttpOnly SameSite=Strict session cookie checked once at the entrance
 * for every page but the public ones, a CSRF token plus an Origin / Sec-Fetch-Site check on every
 * POST, server-rendered HTML under a strict CSP (no build step).
 */
export const createDashboard = (context: DashboardContext, options: DashboardOptions = {}): Middleware => {
  const { service, stores, adminToken, now, throttle } = context;
  const sessions = createSessionStore({ now, ...options.session });
  // Case-sensitive and strict, like the gate: the admin app normalised the path before.
  const router = new Router({ sensitive: true, strict: true });

  const cookie = (ctx: Context, value: string, maxAgeSeconds: number | null): string => sessionCookie(ctx, value, maxAgeSeconds, options.secureCookie);

  const render = (ctx: Context, status: number, title: string, body: HtmlPart, section: Section | null = null) => {
    const { nonce, session } = stateOf(ctx);
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page({ title, nonce, body, signedIn: session ? { section, csrfToken: session.csrfToken } : undefined }).value;
  };

  const redirect = (ctx: Context, location: string) => {
    ctx.redirect(location);
    ctx.status = 303;
  };

  const forbidden = (ctx: Context, why: string) =>
    render(ctx, 403, 'Refused', html`<h1>Request refused</h1><div class="alert error" role="alert">${why}</div><p><a href="/dashboard/keys">Back to the dashboard</a></p>`);

  /** An address blocked for guessing gets the sign-in page with the wait, signed in or not (429). */
  const throttled = (ctx: Context, retryAfterSeconds: number) => {
    stateOf(ctx).session = null;
    ctx.set('Retry-After', String(retryAfterSeconds));
    render(ctx, 429, 'Sign in', signInPage({ error: tooManySignInsMessage(retryAfterSeconds), notice: null }));
  };

  const foreignOrigin = (ctx: Context) => forbidden(ctx, 'This request did not come from a dashboard page of this server (Origin check).');

  /**
   * The entrance, once for every dashboard request that is not public: without a live session, a
   * page view goes to the sign-in form; anything else is first refused when it comes from another
   * origin, then sent to the sign-in form too. Returns false when it has answered.
   */
  const admitted = (ctx: Context): boolean => {
    if (stateOf(ctx).session || isPublicDashboardRequest(ctx.method, ctx.path)) return true;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !isSameOrigin(ctx)) foreignOrigin(ctx);
    else redirect(ctx, '/dashboard/sign-in');
    return false;
  };

  /**
   * Every state-changing request of a signed-in page: from a page of this origin (Origin /
   * Sec-Fetch-Site), then with the session's CSRF token. Reads the form for the handler.
   */
  const guardedForm = async (ctx: Context): Promise<{ session: Session; form: URLSearchParams } | null> => {
    if (!isSameOrigin(ctx)) {
      foreignOrigin(ctx);
      return null;
    }
    const session = sessionOf(ctx);
    const form = await readForm(ctx);
    if (!secretsEqual(form.get('csrf') ?? '', session.csrfToken)) {
      forbidden(ctx, 'The form has expired or did not come from this dashboard (CSRF check). Reload the page and try again.');
      return null;
    }
    return { session, form };
  };

  const showKeys = async (ctx: Context, status: number, values: KeyFormValues, errors: KeyFormErrors) => {
    const session = sessionOf(ctx);
    const [keys, plan] = await Promise.all([service.listKeys(), service.getPlan()]);
    render(ctx, status, 'API keys', keysPage({ keys, plan, flash: sessions.takeFlash(session), csrfToken: session.csrfToken, values, errors }), 'keys');
  };

  router.get('/dashboard/favicon.svg', (ctx) => {
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = FAVICON;
  });
  router.get('/', (ctx) => redirect(ctx, '/dashboard/keys'));
  router.get('/dashboard', (ctx) => redirect(ctx, '/dashboard/keys'));

  router.get('/dashboard/sign-in', (ctx) => {
    if (stateOf(ctx).session) return redirect(ctx, '/dashboard/keys');
    render(ctx, 200, 'Sign in', signInPage({ error: null, notice: ctx.query.signedOut === '1' ? 'You are signed out.' : null }));
  });

  router.post('/dashboard/sign-in', async (ctx) => {
    // No session yet, so no CSRF token: the Origin check alone stops sign-in forgery.
    if (!isSameOrigin(ctx)) return foreignOrigin(ctx);
    const form = await readForm(ctx);
    if (!secretsEqual(form.get('token') ?? '', adminToken)) {
      const address = clientAddress(ctx);
      context.logger.warn({ ip: address }, 'dashboard sign-in with a wrong admin token');
      const blockSeconds = await throttle.recordFailure(address);
      if (blockSeconds > 0) return throttled(ctx, blockSeconds);
      stateOf(ctx).session = null;
      return render(ctx, 401, 'Sign in', signInPage({ error: 'That admin token is not correct. Check ADMIN_TOKEN and try again.', notice: null }));
    }
    const previous = stateOf(ctx).session;
    if (previous) sessions.destroy(previous.id);
    // A fresh id at every sign-in: a session id planted before sign-in is worthless.
    const session = sessions.create();
    ctx.set('Set-Cookie', cookie(ctx, session.id, null));
    redirect(ctx, '/dashboard/keys');
  });

  router.post('/dashboard/sign-out', async (ctx) => {
    const guarded = await guardedForm(ctx);
    if (!guarded) return;
    sessions.destroy(guarded.session.id);
    ctx.set('Set-Cookie', cookie(ctx, '', 0));
    redirect(ctx, '/dashboard/sign-in?signedOut=1');
  });

  router.get('/dashboard/keys', (ctx) => showKeys(ctx, 200, emptyKeyForm, {}));

  router.post('/dashboard/keys', async (ctx) => {
    const guarded = await guardedForm(ctx);
    if (!guarded) return;
    const plan = await service.getPlan();
    const parsed = parseKeyForm(guarded.form, plan.limits.maxRateLimit);
    if (!parsed.ok) return showKeys(ctx, 422, parsed.values, parsed.errors);
    try {
      const created = await service.createKey({ name: parsed.input.name, type: parsed.input.type, allowedDomains: parsed.input.allowedDomains, rateLimit: parsed.input.rateLimit });
      const key = created.value.key;
      guarded.session.flash =
        key === null ? { kind: 'notice', message: `Key "${created.value.name}" was created.` } : { kind: 'created', key, name: created.value.name, keyId: created.value.keyId };
    } catch (error) {
      if (!isPubstreamError(error) || error.status >= 500) throw error;
      guarded.session.flash = { kind: 'error', message: error.message };
    }
    redirect(ctx, '/dashboard/keys#new-key');
  });

  router.get('/dashboard/keys/:keyId', async (ctx) => {
    const session = sessionOf(ctx);
    const [key, plan] = await Promise.all([service.getKey(ctx.params.keyId ?? ''), service.getPlan()]);
    const values: KeyFormValues = { name: key.name, type: key.type, domains: key.allowedDomains.join(', '), rateLimit: String(key.rateLimit) };
    render(ctx, 200, `Edit ${key.name}`, keyEditPage({ key, plan, csrfToken: session.csrfToken, values, errors: {} }), 'keys');
  });

  router.post('/dashboard/keys/:keyId', async (ctx) => {
    const guarded = await guardedForm(ctx);
    if (!guarded) return;
    const [key, plan] = await Promise.all([service.getKey(ctx.params.keyId ?? ''), service.getPlan()]);
    guarded.form.set('type', key.type);
    const parsed = parseKeyForm(guarded.form, plan.limits.maxRateLimit);
    if (!parsed.ok) return render(ctx, 422, `Edit ${key.name}`, keyEditPage({ key, plan, csrfToken: guarded.session.csrfToken, values: parsed.values, errors: parsed.errors }), 'keys');
    try {
      await service.updateKey(key.keyId, { name: parsed.input.name, allowedDomains: parsed.input.allowedDomains, rateLimit: parsed.input.rateLimit ?? plan.limits.defaultRateLimit });
      guarded.session.flash = { kind: 'notice', message: `Key "${parsed.input.name}" was saved.` };
    } catch (error) {
      if (!isPubstreamError(error) || error.status >= 500) throw error;
      guarded.session.flash = { kind: 'error', message: error.message };
    }
    redirect(ctx, '/dashboard/keys');
  });

  router.get('/dashboard/keys/:keyId/delete', async (ctx) => {
    const session = sessionOf(ctx);
    const key = await service.getKey(ctx.params.keyId ?? '');
    render(ctx, 200, `Delete ${key.name}`, keyDeletePage({ key, csrfToken: session.csrfToken }), 'keys');
  });

  router.post('/dashboard/keys/:keyId/delete', async (ctx) => {
    const guarded = await guardedForm(ctx);
    if (!guarded) return;
    const key = await service.getKey(ctx.params.keyId ?? '');
    // deleteKey returns after the projector applied it: the key is refused from now on.
    await service.deleteKey(key.keyId);
    guarded.session.flash = { kind: 'notice', message: `Key "${key.name}" (${key.maskedKey}) was deleted; requests with it now get 401.` };
    redirect(ctx, '/dashboard/keys');
  });

  router.get('/dashboard/usage', async (ctx) => {
    const to = now();
    const requested = typeof ctx.query.key === 'string' && ctx.query.key !== '' ? ctx.query.key : null;
    const allKeys = await service.listKeys();
    const selectedKeyId = requested !== null && allKeys.some((key) => key.keyId === requested) ? requested : null;
    const keyId = selectedKeyId ?? undefined;
    const monthStart = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 11, 1));
    const [hourly, daily, monthly] = await Promise.all([
      usageReport(stores, { granularity: 'hour', from: new Date(to.getTime() - 23 * 3_600_000), to, keyId }),
      usageReport(stores, { granularity: 'day', from: new Date(to.getTime() - 29 * 86_400_000), to, keyId }),
      usageReport(stores, { granularity: 'month', from: monthStart, to }),
    ]);
    render(
      ctx,
      200,
      'Usage',
      usagePage({ hourly: hourly.keys, daily: daily.keys, monthly: monthly.keys, allKeys: allKeys.map(({ keyId: id, name, type }) => ({ keyId: id, name, type })), selectedKeyId }),
      'usage',
    );
  });

  router.get('/dashboard/plan', async (ctx) => {
    const session = sessionOf(ctx);
    render(ctx, 200, 'Plan', planPage({ plan: await service.getPlan(), flash: sessions.takeFlash(session), csrfToken: session.csrfToken }), 'plan');
  });

  router.post('/dashboard/plan', async (ctx) => {
    const guarded = await guardedForm(ctx);
    if (!guarded) return;
    const plan = planNameSchema.safeParse(guarded.form.get('plan'));
    if (!plan.success) guarded.session.flash = { kind: 'error', message: 'Choose one of the listed plans.' };
    else {
      try {
        const result = await service.setPlan({ plan: plan.data });
        guarded.session.flash = { kind: 'notice', message: `You are now on the ${result.value.plan} plan.` };
      } catch (error) {
        if (!isPubstreamError(error) || error.status >= 500) throw error;
        guarded.session.flash = { kind: 'error', message: error.message };
      }
    }
    redirect(ctx, '/dashboard/plan');
  });

  router.get('/dashboard/collections', async (ctx) => {
    render(ctx, 200, 'Collections', collectionsPage(await service.listCollections()), 'collections');
  });

  const routes = router.routes() as unknown as Middleware;

  return async (ctx, next) => {
    if (!isDashboardPath(ctx.path)) return next();
    const state = stateOf(ctx);
    state.nonce = randomBytes(16).toString('base64');
    state.session = sessions.get(sessionIdOf(ctx));
    ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'nonce-${state.nonce}'; script-src 'nonce-${state.nonce}'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Not no-referrer: with it Chromium sends `Origin: null` on form posts, and the Origin check needs it.
    ctx.set('Referrer-Policy', 'same-origin');
    // Blocked addresses first: while blocked, even the right token or a live session gets 429.
    const blockedFor = await throttle.blockedFor(clientAddress(ctx));
    if (blockedFor > 0) return throttled(ctx, blockedFor);
    if (!admitted(ctx)) return;
    try {
      await routes(ctx, async () => {
        throw new NotFoundError(`No dashboard page at ${echoInput(ctx.path)}`);
      });
      if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null)) throw new NotFoundError(`No dashboard page at ${echoInput(ctx.path)}`);
    } catch (error) {
      const failure = failurePage(error, ctx.path);
      if (failure.log !== null) context.logger[failure.log]({ err: error, method: ctx.method, url: ctx.path }, failure.log === 'warn' ? 'dashboard: backend unavailable' : 'dashboard request failed');
      if (failure.retryAfterSeconds !== null) ctx.set('Retry-After', String(failure.retryAfterSeconds));
      render(ctx, failure.status, failure.title, failure.body);
    }
  };
};
