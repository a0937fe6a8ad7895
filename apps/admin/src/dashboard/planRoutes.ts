import type Router from '@koa/router';
import { planNameSchema } from '@pubstream/domain';
import type { AdminService } from '../adminService.js';
import { redirectTo, renderPage } from './dashboardResponses.js';
import { sessionOf } from './dashboardState.js';
import { flashOutcome } from './flashOutcome.js';
import { guardedForm } from './formGuard.js';
import { planPage } from './planPage.js';
import type { Flash, SessionStore } from './sessionStore.js';

export interface PlanPageDeps {
  readonly service: Pick<AdminService, 'getPlan' | 'setPlan'>;
  readonly sessions: Pick<SessionStore, 'takeFlash'>;
}

/** The plan page: the current plan and every plan's limits, and the switch. */
export const planRoutes = (router: Router, deps: PlanPageDeps): void => {
  router.get('/dashboard/plan', async (ctx) => {
    const session = sessionOf(ctx);
    renderPage(ctx, 200, 'Plan', planPage({ plan: await deps.service.getPlan(), flash: deps.sessions.takeFlash(session), csrfToken: session.csrfToken }), 'plan');
  });

  router.post('/dashboard/plan', async (ctx) => {
    const guarded = await guardedForm(ctx);
    if (!guarded) return;
    const plan = planNameSchema.safeParse(guarded.form.get('plan'));
    guarded.session.flash = plan.success
      ? await flashOutcome(async (): Promise<Flash> => ({ kind: 'notice', message: `You are now on the ${(await deps.service.setPlan({ plan: plan.data })).value.plan} plan.` }))
      : { kind: 'error', message: 'Choose one of the listed plans.' };
    redirectTo(ctx, '/dashboard/plan');
  });
};
