import type { Context } from 'koa';

/**
 * The address a request came from, as the socket saw it: the admin app never trusts
 * X-Forwarded-For (app.proxy is false), so behind a reverse proxy every client shares the
 * proxy's address (docs/security.md). IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is read as IPv4.
 */
export const clientAddress = (ctx: Context): string => {
  const address = ctx.req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
};
