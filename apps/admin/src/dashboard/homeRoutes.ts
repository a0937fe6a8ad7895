import type Router from '@koa/router';
import { redirectTo } from './dashboardResponses.js';
import { FAVICON } from './favicon.js';

/** The public ways in: `/` and `/dashboard` lead to the keys page (or, signed out, on to sign-in), and the icon. */
export const homeRoutes = (router: Router): void => {
  router.get('/dashboard/favicon.svg', (ctx) => {
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = FAVICON;
  });
  router.get('/', (ctx) => redirectTo(ctx, '/dashboard/keys'));
  router.get('/dashboard', (ctx) => redirectTo(ctx, '/dashboard/keys'));
};
