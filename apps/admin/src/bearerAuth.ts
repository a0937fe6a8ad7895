import { secretsEqual } from '@pubstream/access';
import { UnauthorizedError } from '@pubstream/domain';
import type { Middleware } from 'koa';

/** The admin API's only credential: `Authorization: Bearer $ADMIN_TOKEN`, compared in constant time. */
export const bearerAuth = (adminToken: string): Middleware => async (ctx, next) => {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1] || !secretsEqual(match[1], adminToken)) throw new UnauthorizedError('Missing or invalid admin token');
  await next();
};
