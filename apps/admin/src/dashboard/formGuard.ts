import { secretsEqual } from '@pubstream/access';
import type { Context } from 'koa';
import { refuseForeignOrigin, refusePage } from './dashboardResponses.js';
import { sessionOf } from './dashboardState.js';
import { readForm } from './formBody.js';
import { isSameOrigin } from './requestOrigin.js';
import type { Session } from './sessionStore.js';

export interface GuardedForm {
  readonly session: Session;
  readonly form: URLSearchParams;
}

/**
 * Every state-changing request of a signed-in page: from a page of this origin (Origin /
 * Sec-Fetch-Site), then with the session's CSRF token (constant-time compare). Reads the form
 * for the handler; answers 403 itself and returns null when a check fails (docs/dashboard.md).
 */
export const guardedForm = async (ctx: Context): Promise<GuardedForm | null> => {
  if (!isSameOrigin(ctx)) {
    refuseForeignOrigin(ctx);
    return null;
  }
  const session = sessionOf(ctx);
  const form = await readForm(ctx);
  if (!secretsEqual(form.get('csrf') ?? '', session.csrfToken)) {
    refusePage(ctx, 'The form has expired or did not come from this dashboard (CSRF check). Reload the page and try again.');
    return null;
  }
  return { session, form };
};
