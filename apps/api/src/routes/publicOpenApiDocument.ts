import { buildOpenApiDocument, errorBodySchema } from '@pubstream/http';
import { publicRouteContracts } from './publicContract.js';
import { publicHeaders } from './publicHeaders.js';

/** What any request may get before it reaches a route (docs/public-api.md, "Errors"). */
export const PUBLIC_EDGE_RESPONSES = {
  '400': 'A malformed HTTP request or path (bad percent-encoding)',
  '404': '`No route for <method> <path>`: an unknown path',
  '405': 'A known path with another method; `Allow` lists the right ones',
  '408': 'Headers not received within 15 s, or the whole request within 30 s',
  '413': 'Chunk extensions too large',
  '429': '`Too many open connections from your address (at most N)`',
  '431': 'Request line and headers over 16 KiB',
};

/** GET /openapi.json of the public port, generated from the route table (publicContract.ts). */
export const publicOpenApiDocument = () =>
  buildOpenApiDocument({
    info: {
      title: 'Pubstream public API',
      version: '1.0.0',
      description:
        'Read-only delivery of data items, and their changes live. Every read needs `X-API-Key`. Every error is `{error, message}`; answers any request may get before it reaches a route are listed under `x-edge-responses`. `OPTIONS` on a public path is a CORS preflight: 204, no key. Guide: docs/public-api.md.',
    },
    tags: [
      { name: 'Public reads', description: 'Items and collection pages' },
      { name: 'Live', description: 'Server-Sent Events' },
      { name: 'Operations', description: 'Probes, metrics and this reference; no key' },
    ],
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: '`pk_live_…` or `pk_test_…`' },
      apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey', description: 'The key on /subscribe: an EventSource cannot set headers' },
    },
    headers: publicHeaders,
    routes: publicRouteContracts(),
    edgeResponses: PUBLIC_EDGE_RESPONSES,
    errorBody: errorBodySchema,
  });
