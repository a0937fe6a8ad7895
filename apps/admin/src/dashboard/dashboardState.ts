import type { Context } from 'koa';
import type { Session } from './sessionStore.js';

/** What the entrance puts on `ctx.state` for the pages: the CSP nonce of this response and the live session, if any. */
export interface DashboardState {
  nonce: string;
  session: Session | null;
}

export const stateOf = (ctx: Context): DashboardState => ctx.state as DashboardState;

/** The session of a signed-in page; the entrance has already sent every request without one to sign in. */
export const sessionOf = (ctx: Context): Session => {
  const session = stateOf(ctx).session;
  if (!session) throw new Error('A dashboard page that needs a session was reached without one');
  return session;
};
