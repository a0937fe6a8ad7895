import type { Context } from 'koa';
import { stateOf } from './dashboardState.js';
import { html, type HtmlPart } from './html.js';
import { page, type Section } from './layout.js';
import { signInPage, tooManySignInsMessage } from './signInPage.js';

/** Sends a dashboard page: the layout (with the navigation when signed in) around `body`, under this response's nonce. */
export const renderPage = (ctx: Context, status: number, title: string, body: HtmlPart, section: Section | null = null): void => {
  const { nonce, session } = stateOf(ctx);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page({ title, nonce, body, signedIn: session ? { section, csrfToken: session.csrfToken } : undefined }).value;
};

/** 303 See Other: after a form post the browser fetches `location` with GET (post/redirect/get). */
export const redirectTo = (ctx: Context, location: string): void => {
  ctx.redirect(location);
  ctx.status = 303;
};

/** 403 with the reason, and nothing changed. */
export const refusePage = (ctx: Context, why: string): void =>
  renderPage(ctx, 403, 'Refused', html`<h1>Request refused</h1><div class="alert error" role="alert">${why}</div><p><a href="/dashboard/keys">Back to the dashboard</a></p>`);

export const refuseForeignOrigin = (ctx: Context): void => refusePage(ctx, 'This request did not come from a dashboard page of this server (Origin check).');

/** An address blocked for guessing gets the sign-in page with the wait, signed in or not (429). */
export const throttledSignIn = (ctx: Context, retryAfterSeconds: number): void => {
  stateOf(ctx).session = null;
  ctx.set('Retry-After', String(retryAfterSeconds));
  renderPage(ctx, 429, 'Sign in', signInPage({ error: tooManySignInsMessage(retryAfterSeconds), notice: null }));
};

/**
 * A failed page as HTML: a refused request (4xx) with its message; a backend that cannot answer
 * now (503: Redis down or frozen, the read model being rebuilt) as a page that says so with
 * Retry-After, never an empty list or "not found"; a server fault (5xx) without details.
 */
export const failurePage = (ctx: Context, status: number, message: string): void => {
  if (status === 503) {
    ctx.set('Retry-After', '1');
    return renderPage(
      ctx,
      503,
      'Temporarily unavailable',
      html`<h1>Temporarily unavailable</h1><div class="alert error" role="alert">${message}</div><p>Nothing was lost. <a href="${ctx.path}">Try again</a> in a moment.</p>`,
    );
  }
  if (status >= 500) {
    return renderPage(ctx, 500, 'Error', html`<h1>Something went wrong</h1><div class="alert error" role="alert">The server could not complete this request. Try again; the admin log has the details.</div>`);
  }
  const heading = status === 404 ? 'Not found' : 'Request refused';
  renderPage(ctx, status, status === 404 ? 'Not found' : 'Error', html`<h1>${heading}</h1><div class="alert error" role="alert">${message}</div><p><a href="/dashboard/keys">Back to the dashboard</a></p>`);
};
