import { readFileSync } from 'node:fs';
import { API_REFERENCE_PATHS, toRouterPath } from '@pubstream/http';
import { createMetricsRegistry } from '@pubstream/observability';
import { describe, expect, it } from 'vitest';
import { publicRouteContracts } from './publicContract.js';
import { publicOpenApiDocument } from './publicOpenApiDocument.js';
import { createPublicRouter } from './publicRouter.js';

type Operation = { parameters?: { name: string; schema: Record<string, unknown> }[]; responses: Record<string, { content?: Record<string, Record<string, unknown>>; headers?: Record<string, unknown> }> };
const document = publicOpenApiDocument() as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
const committed = new URL('../../../../docs/openapi/public-api.json', import.meta.url);

describe('the public OpenAPI document (generated from publicContract.ts)', () => {
  it('names exactly the routes the router serves, and the reference that apiReference serves', () => {
    const noop = async () => undefined;
    const { router } = createPublicRouter({ readModel: {} as never, access: {} as never, edge: {} as never, history: {} as never, minPosition: {} as never, subscribe: noop, readiness: { report: noop as never }, metrics: createMetricsRegistry({ app: 'api', collectDefaults: false }) });
    const served = router.stack.flatMap((layer) => layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${layer.path}`));
    const referencePaths = Object.values(API_REFERENCE_PATHS).map((path) => `GET ${path}`);
    const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${toRouterPath(path)}`));
    expect(documented.sort()).toEqual([...served, ...referencePaths].sort());
    expect(publicRouteContracts().map((route) => route.operationId)).toEqual([...new Set(publicRouteContracts().map((route) => route.operationId))]);
  });

  it('is the one committed in docs/openapi (run `npm run openapi` after changing a route or a schema)', () => {
    expect(JSON.parse(readFileSync(committed, 'utf8'))).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('gives the dataId pattern, the query bounds, the stream events and an {error, message} body for every error', () => {
    const item = document.paths['/public/data/{dataId}']?.get;
    expect(item?.parameters?.find((parameter) => parameter.name === 'dataId')?.schema).toMatchObject({ pattern: '^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$' });
    const page = document.paths['/public/collections/{slug}/data']?.get;
    expect(page?.parameters?.find((parameter) => parameter.name === 'limit')?.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    const stream = document.paths['/subscribe']?.get?.responses['200']?.content?.['text/event-stream'];
    expect(Object.keys(stream?.['x-sse-events'] as object)).toEqual(['connected', 'update', 'delete', 'ready', 'reset', 'reconnect']);
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          // NotReady is {error, message} with the readiness checks.
          const errorRef = path === '/readyz' ? '#/components/schemas/NotReady' : '#/components/schemas/Error';
          if (Number(status) >= 400) expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({ $ref: errorRef });
          expect(response.headers?.['X-Request-Id'], `${method} ${path} ${status}`).toBeDefined();
        }
      }
    }
    expect(item?.responses['200']?.headers).toHaveProperty('ETag');
    expect(item?.responses['429']?.headers).toHaveProperty('Retry-After');
  });
});
