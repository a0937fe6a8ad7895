import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { ProjectorSnapshot } from './projectorOptions.js';

export interface ProjectorHttpDeps {
  readonly snapshot: () => ProjectorSnapshot;
  readonly metrics: Registry;
  /** True once the process is stopping: /readyz answers 503 from then on. */
  readonly draining: () => boolean;
}

const json = (res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
};

/** /readyz: the projector is working, as the active one or as a standby; 503 while it retries or stops. */
const readiness = (deps: ProjectorHttpDeps, res: ServerResponse): void => {
  const snap = deps.snapshot();
  if (deps.draining()) return json(res, 503, { error: 'shutting_down', message: 'The projector is stopping' }, { 'retry-after': '1' });
  if (snap.state === 'retrying' || snap.state === 'stopped') {
    return json(res, 503, { error: 'not_ready', message: `The projector is ${snap.state === 'retrying' ? 'retrying after a backend error' : 'stopped'}` }, { 'retry-after': '1' });
  }
  json(res, 200, { status: 'ready', role: snap.active ? 'active' : 'standby', state: snap.state, applied: snap.applied, published: snap.published, publisher: snap.publisher });
};

/**
 * The projector's own small listener (docs/projections.md): `/healthz` (the process answers),
 * `/readyz` (it works, and whether it is the active one) and `/metrics` (Prometheus). No body is
 * read; every other path is 404 and every other method 405, as JSON.
 */
export const createProjectorHttpHandler =
  (deps: ProjectorHttpDeps): RequestListener =>
  (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/healthz' && path !== '/readyz' && path !== '/metrics') return json(res, 404, { error: 'not_found', message: `No route ${path}` });
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'method_not_allowed', message: 'Only GET and HEAD' }, { allow: 'GET, HEAD' });
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    if (path === '/readyz') return readiness(deps, res);
    deps.metrics.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': deps.metrics.contentType });
        res.end(text);
      },
      (err: unknown) => json(res, 500, { error: 'internal', message: err instanceof Error ? err.message : 'metrics failed' }),
    );
  };
