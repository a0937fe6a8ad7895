import { buildOpenApiDocument, errorBodySchema } from '@pubstream/http';
import { adminRouteContracts } from './adminContract.js';
import { adminHeaders } from './adminHeaders.js';

/** What any request to the admin port may get before it reaches a route (docs/admin-api.md, Conventions). */
export const ADMIN_EDGE_RESPONSES = {
  '400': 'A malformed HTTP request, or malformed percent-encoding in the path',
  '401': '`Missing or invalid admin token`: every path needs the token (default deny), known or not, but the public ones',
  '404': '`No route for <method> <path>` (with the token)',
  '405': 'A known path with another method; `Allow` lists the right ones',
  '408': 'Headers not received within 15 s, or the whole request within 30 s',
  '413': 'Chunk extensions too large',
  '421': 'A `Host` outside ADMIN_ALLOWED_HOSTS, on every path',
  '429': 'Too many failed authentications from this address, or too many open connections',
  '431': 'Request line and headers over 16 KiB',
};

/** GET /openapi.json of the admin port, generated from the route table (adminContract.ts). */
export const adminOpenApiDocument = () =>
  buildOpenApiDocument({
    info: {
      title: 'Pubstream admin API',
      version: '1.0.0',
      description:
        'The write side: collections, items, API keys, the plan and usage. Every path needs `Authorization: Bearer $ADMIN_TOKEN` but /healthz, /readyz, this document and /docs (and the dashboard, which has its own sign-in and is not described here). Every write may carry an `Idempotency-Key`, and is answered 202 with its position when the read model cannot confirm it in time. Every error is `{error, message}`; answers any request may get before it reaches a route are listed under `x-edge-responses`. Guide: docs/admin-api.md.',
    },
    tags: [
      { name: 'Collections', description: 'Collections and their sortable fields' },
      { name: 'Items', description: 'Data items, one by one or imported' },
      { name: 'API keys', description: 'Keys of the public API' },
      { name: 'Plan and usage', description: 'The plan, its limits, and requests per key' },
      { name: 'Operations', description: 'Probes, metrics and this reference' },
    ],
    securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' } },
    headers: adminHeaders,
    routes: adminRouteContracts(),
    edgeResponses: ADMIN_EDGE_RESPONSES,
    errorBody: errorBodySchema,
  });
