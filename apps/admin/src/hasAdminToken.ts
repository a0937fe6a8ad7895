import { secretsEqual } from '@pubstream/access';
import type { Context } from 'koa';

/** True when the request carries the admin API's credential, `Authorization: Bearer $ADMIN_TOKEN` (constant-time compare). */
export const hasAdminToken = (ctx: Context, adminToken: string): boolean => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  return match?.[1] !== undefined && secretsEqual(match[1], adminToken);
};
