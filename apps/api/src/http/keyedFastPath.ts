import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Context, Middleware, Next } from 'koa';
import { matchKeyedRoute, type KeyedRouteName } from './keyedRouteMatch.js';

export interface KeyedFastPathDeps {
  readonly app: Koa;
  /**
   * The middleware every request passes before the router, outermost first, the same instances the
   * app uses (request id and access log, metrics, error rendering, refusal counts), so that a fast
   * answer is the answer the chain gives.
   */
  readonly outer: readonly Middleware[];
  /** The route handlers, the same ones the router mounts. */
  readonly routes: Readonly<Record<KeyedRouteName, Middleware>>;
}

type RequestListener = ReturnType<Koa['callback']>;

/** Koa's own request handling: its context, its response writing (HEAD, 304, lengths) and its error fallback. */
interface KoaInternals {
  handleRequest(ctx: Context, middleware: (ctx: Context) => Promise<void>): Promise<void>;
}

const endOfChain: Next = () => Promise.resolve();

/**
 * Runs `outer[index]`, whose `next` runs the rest and finally the handler, as koa-compose would.
 * A module-level function: no named closure per request (tsx and esbuild's keepNames wrap each).
 */
const runFrom = (outer: readonly Middleware[], index: number, ctx: Context, handler: Middleware): Promise<void> => {
  const middleware = outer[index];
  try {
    if (!middleware) return Promise.resolve(handler(ctx, endOfChain));
    return Promise.resolve(middleware(ctx, () => runFrom(outer, index + 1, ctx, handler)));
  } catch (error) {
    // A middleware that throws before returning its promise, as koa-compose treats it.
    return Promise.reject(error);
  }
};

/**
 * The node:http listener of the public API (docs/public-api.md, "Hot path"): a keyed read in its
 * canonical spelling (keyedRouteMatch.ts) runs the outer middleware and its route handler
 * directly, nested calls instead of the composed chain, without the CORS-preflight and
 * API-reference checks (they never answer these requests) and without the router's matching;
 * everything else takes the full Koa chain. The Koa context and response writing are the same.
 */
export const keyedFastPath = (deps: KeyedFastPathDeps): RequestListener => {
  const chain = deps.app.callback();
  const koa = deps.app as unknown as KoaInternals;
  return (req, res) => {
    const match = matchKeyedRoute(req.method, req.url);
    if (match === null) return chain(req, res);
    const handler = deps.routes[match.name];
    // The public port is HTTP/1.1 (createEdgeServer), as for Koa's own callback.
    const ctx = deps.app.createContext(req as IncomingMessage, res as ServerResponse);
    // What the router sets on a match and what the middleware read: the parameters and the pattern.
    ctx.params = match.params;
    (ctx as { _matchedRoute?: string })._matchedRoute = match.pattern;
    return koa.handleRequest(ctx, (c) => runFrom(deps.outer, 0, c, handler));
  };
};
