/** OpenAPI 3.1 description of the public routes (served at GET /openapi.json). */
const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const rateHeaders = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests allowed per window' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests that would still be admitted now (sliding window)' },
  'X-RateLimit-Reset': {
    schema: { type: 'integer' },
    description: 'Unix time (seconds): when Remaining is 0, when the next request is admitted; otherwise when the whole limit is free again',
  },
  'X-Position': { schema: { type: 'string', pattern: '^[0-9]{1,15}$' }, description: 'The log position the answer reflects (docs/public-api.md, Positions)' },
};
const minPosition = {
  name: 'minPosition',
  in: 'query',
  schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
  description: 'Wait (bounded) until this node has applied the position; 503 past the wait, 400 `Invalid position` when malformed',
};
const common = {
  '401': error('Missing or invalid API key (`Invalid API key`)'),
  '403': error('Domain not allowed for this API key'),
  '429': error('Rate limit exceeded. Try again in N seconds. / Rate limit exceeded. Try again later.'),
  '503': error('A backend is unavailable; retry'),
};
const itemRef = { $ref: '#/components/schemas/ListItem' };

export const openApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Pubstream public API', version: '1.0.0', description: 'Read-only delivery of data items. See docs/public-api.md.' },
  components: {
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    schemas: {
      Error: { type: 'object', required: ['error', 'message'], properties: { error: { type: 'string' }, message: { type: 'string' } } },
      Item: {
        type: 'object',
        required: ['id', 'dataId', 'collectionId', 'data', 'createdAt', 'updatedAt'],
        properties: {
          id: { type: 'string' },
          dataId: { type: 'string' },
          collectionId: { type: 'string' },
          data: { type: 'object' },
          createdAt: { type: 'string', format: 'date-time' },
          updatedAt: { type: 'string', format: 'date-time' },
        },
      },
      ListItem: { type: 'object', required: ['dataId', 'data'], properties: { dataId: { type: 'string' }, data: { type: 'object' } } },
    },
  },
  security: [{ apiKey: [] }],
  paths: {
    '/public/data/{dataId}': {
      get: {
        summary: 'Get single item',
        parameters: [{ name: 'dataId', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$' } }, minPosition],
        responses: {
          '200': { description: 'The item', headers: { ...rateHeaders, ETag: { schema: { type: 'string' } } }, content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
          '304': { description: 'Not modified (If-None-Match)' },
          '400': error('Invalid dataId format'),
          '404': error('Data not found'),
          ...common,
        },
      },
    },
    '/public/batch': {
      post: {
        summary: 'Batch fetch',
        parameters: [minPosition],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['dataIds'],
                properties: { dataIds: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 100 }, fields: { type: 'array', items: { type: 'string' } } },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Found items in request order, and the ids not found',
            headers: rateHeaders,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['data', 'found', 'notFound'],
                  properties: { data: { type: 'array', items: itemRef }, found: { type: 'integer' }, notFound: { type: 'array', items: { type: 'string' } } },
                },
              },
            },
          },
          '400': error('Invalid body, more than 100 dataIds, or Invalid dataId format'),
          '413': error('Body over 1 MiB'),
          '415': error('Content-Type must be application/json'),
          ...common,
        },
      },
    },
    '/public/collections/{slug}/data': {
      get: {
        summary: 'Get collection data',
        parameters: [
          { name: 'slug', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          { name: 'sort', in: 'query', schema: { type: 'string', default: 'createdAt' }, description: 'createdAt, updatedAt, dataId or a sortable field of the collection' },
          { name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } },
          minPosition,
        ],
        responses: {
          '200': {
            description: 'One page (empty past the last page)',
            headers: { ...rateHeaders, ETag: { schema: { type: 'string' } } },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['data', 'total', 'page', 'limit', 'totalPages'],
                  properties: { data: { type: 'array', items: itemRef }, total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, totalPages: { type: 'integer' } },
                },
              },
            },
          },
          '304': { description: 'Not modified (If-None-Match)' },
          '400': error('Invalid page, limit, sort or order (the message names the allowed values)'),
          '404': error('Collection not found'),
          ...common,
        },
      },
    },
    '/public/collections/{slug}/changes': {
      get: {
        summary: 'The collection’s item changes after a position (docs/public-api.md, Changes feed)',
        parameters: [
          { name: 'slug', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'since', in: 'query', schema: { type: 'string', pattern: '^[0-9]{1,15}$', default: '0' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
          minPosition,
        ],
        responses: {
          '200': { description: '{changes: [{position, dataId, action, version, data}], nextSince, hasMore}; X-Position = nextSince', headers: rateHeaders },
          '400': error('Invalid position or limit'),
          '404': error('Collection not found'),
          '410': error('Position expired: re-read the collection'),
          ...common,
        },
      },
    },
    '/subscribe': {
      get: {
        summary: 'Server-Sent Events stream of changes (see docs/subscriptions.md)',
        security: [],
        parameters: [
          { name: 'apiKey', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'collections', in: 'query', schema: { type: 'string' } },
          { name: 'dataIds', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'text/event-stream' }, '400': error('Bad subscription'), '404': error('Collection not found'), ...common },
      },
    },
  },
} as const;
