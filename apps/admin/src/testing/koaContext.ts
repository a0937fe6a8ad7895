import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa, { type Context } from 'koa';

export interface FakeRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** Sent as the request body (a form: application/x-www-form-urlencoded). */
  readonly form?: Record<string, string>;
}

/**
 * A Koa context over an unconnected socket, for middleware unit tests without a server: the
 * request carries `headers` and the form body, the response is read from `ctx` afterwards.
 */
export const koaContext = (request: FakeRequest): Context => {
  const req = new IncomingMessage(new Socket());
  req.method = request.method ?? 'GET';
  req.url = request.path;
  const headers: Record<string, string> = { host: '127.0.0.1:8081', ...request.headers };
  if (request.form !== undefined) {
    const body = new URLSearchParams(request.form).toString();
    Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) });
    req.push(body);
  }
  req.push(null);
  req.headers = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return new Koa().createContext(req, new ServerResponse(req));
};

/** Runs `middleware` on `ctx`; resolves to whether it called `next`. */
export const runMiddleware = async (middleware: Koa.Middleware, ctx: Context): Promise<boolean> => {
  let passed = false;
  await middleware(ctx, async () => {
    passed = true;
  });
  return passed;
};
