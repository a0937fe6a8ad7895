import { isPubstreamError } from '@pubstream/domain';
import { html, type SafeHtml } from './html.js';

/** How the dashboard shows a request that failed: the page, and whether the operator's log hears of it. */
export interface FailurePage {
  readonly status: number;
  readonly title: string;
  readonly body: SafeHtml;
  /** `Retry-After` seconds, when the failure is temporary. */
  readonly retryAfterSeconds: number | null;
  readonly log: 'warn' | 'error' | null;
}

/**
 * The page for a failed dashboard request (docs/dashboard.md): a backend that cannot answer now
 * (Redis down or frozen, the read model being rebuilt) is a 503 page that says so, never an empty
 * list or "not found"; a fault is a 500 that shows nothing of its cause; a refusal shows its reason.
 */
export const failurePage = (error: unknown, path: string): FailurePage => {
  if (isPubstreamError(error) && error.status === 503) {
    return {
      status: 503,
      title: 'Temporarily unavailable',
      body: html`<h1>Temporarily unavailable</h1><div class="alert error" role="alert">${error.message}</div><p>Nothing was lost. <a href="${path}">Try again</a> in a moment.</p>`,
      retryAfterSeconds: 1,
      log: 'warn',
    };
  }
  if (!isPubstreamError(error) || error.status >= 500) {
    return {
      status: 500,
      title: 'Error',
      body: html`<h1>Something went wrong</h1><div class="alert error" role="alert">The server could not complete this request. Try again; the admin log has the details.</div>`,
      retryAfterSeconds: null,
      log: 'error',
    };
  }
  const notFound = error.status === 404;
  return {
    status: error.status,
    title: notFound ? 'Not found' : 'Error',
    body: html`<h1>${notFound ? 'Not found' : 'Request refused'}</h1><div class="alert error" role="alert">${error.message}</div><p><a href="/dashboard/keys">Back to the dashboard</a></p>`,
    retryAfterSeconds: null,
    log: null,
  };
};
