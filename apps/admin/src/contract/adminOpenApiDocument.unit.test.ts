import { readFileSync } from 'node:fs';
import { toRouterPath } from '@pubstream/http';
import { describe, expect, it } from 'vitest';
import { createAdminRoutes } from '../adminRoutes.js';
import { adminContracts } from './adminContract.js';
import { adminOpenApiDocument } from './adminOpenApiDocument.js';

type Operation = { security: unknown[]; requestBody?: unknown; parameters?: { name: string }[]; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
const document = adminOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };
const committed = new URL('../../../../docs/openapi/admin-api.json', import.meta.url);

describe('the admin OpenAPI document (generated from adminContract.ts)', () => {
  it('names exactly the routes of the admin router (besides the probes, metrics and reference, which the contract test requests)', () => {
    const { router } = createAdminRoutes({} as never);
    const served = router.stack.flatMap((layer) => layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${layer.path}`));
    const documented = Object.values(adminContracts).map((route) => `${route.method.toUpperCase()} ${toRouterPath(route.path)}`);
    expect(documented.sort()).toEqual(served.sort());
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/admin/')).sort()).toEqual(['/docs', '/docs/redoc.standalone.js', '/healthz', '/metrics', '/openapi.json', '/readyz']);
  });

  it('is the one committed in docs/openapi (run `npm run openapi` after changing a route or a schema)', () => {
    expect(JSON.parse(readFileSync(committed, 'utf8'))).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('asks for the token on every /admin route, takes an Idempotency-Key on every write, and answers errors as {error, message}', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (path.startsWith('/admin/')) expect(operation.security, `${method} ${path}`).toEqual([{ adminToken: [] }]);
        if (method !== 'get') expect(operation.parameters?.map((parameter) => parameter.name), `${method} ${path}`).toContain('Idempotency-Key');
        for (const [status, response] of Object.entries(operation.responses)) {
          // NotReady is {error, message} with the readiness checks.
          const errorRef = path === '/readyz' ? '#/components/schemas/NotReady' : '#/components/schemas/Error';
          if (Number(status) >= 400) expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({ $ref: errorRef });
        }
      }
    }
  });
});
