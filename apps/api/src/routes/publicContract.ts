import { dataIdSchema, slugSchema } from '@pubstream/domain';
import { errorBodySchema, operationsContracts, type ResponseContract, type RouteContract } from '@pubstream/http';
import { z } from 'zod';
import { batchBodySchema } from './batchRequest.js';
import { collectionQuerySchema } from './collectionQuery.js';
import { CACHE_HEADERS, RATE_HEADERS } from './publicHeaders.js';
import { changesQuerySchema } from './changesQuery.js';
import { batchAnswerSchema, changesAnswerSchema, itemSchema, pageSchema } from './publicSchemas.js';
import { streamEventSchemas, subscribeQuerySchema } from './streamEventSchemas.js';

// The public API's route table (docs/public-api.md): one entry per route, mounted by
// publicRoutes.ts and the subscribe route, and the only source of GET /openapi.json.

// Positions (docs/public-api.md, Positions): `X-Position` on every read, `minPosition` on every
// read's query, and the changes feed.
const POSITION_HEADERS: readonly string[] = ['X-Position'];
const positionSchema = z.string().regex(/^[0-9]{1,15}$/);
const positionQuery = {
  minPosition: positionSchema.optional().meta({ description: 'Wait (at most MIN_POSITION_WAIT_MS, default 2 s) until this node has applied this position; else 503 with Retry-After' }),
};

const error = (description: string, headers: readonly string[] = ['X-Request-Id']): ResponseContract => ({ description, body: errorBodySchema, headers });
const READ_HEADERS = [...RATE_HEADERS, ...POSITION_HEADERS];

/** The refusals every keyed route shares, in the order they are checked: key, domain, rate limit, backend. */
const refusals = {
  '401': error('`Invalid API key`: missing, malformed, unknown or deleted key, or a test key where test keys are refused'),
  '403': error('`Domain not allowed for this API key`'),
  '429': error('`Rate limit exceeded. Try again in N seconds.` (the window) or `Rate limit exceeded. Try again later.` (the monthly quota)', [...RATE_HEADERS, 'Retry-After']),
  '503': error('A backend is unavailable, or the read model has not caught up: retry', ['X-Request-Id', 'Retry-After']),
};

const notModified: ResponseContract = {
  description: 'Not modified: the `If-None-Match` tag (or `If-Modified-Since` date) is current (counts against the rate limit)',
  headers: [...READ_HEADERS, ...CACHE_HEADERS, 'ETag', 'Last-Modified'],
};

export const publicContracts = {
  item: {
    method: 'get',
    path: '/public/data/{dataId}',
    operationId: 'getItem',
    summary: 'Get one item',
    tags: ['Public reads'],
    security: ['apiKey'],
    pathParams: z.object({ dataId: dataIdSchema }),
    query: z.object(positionQuery),
    requestHeaders: ['If-None-Match', 'If-Modified-Since'],
    responses: {
      '200': { description: 'The item', body: itemSchema, headers: [...READ_HEADERS, ...CACHE_HEADERS, 'ETag', 'Last-Modified'] },
      '304': notModified,
      '400': error('`Invalid dataId format` or `Invalid position`', READ_HEADERS),
      '404': error('`Data not found`', READ_HEADERS),
      ...refusals,
    },
  },
  batch: {
    method: 'post',
    path: '/public/batch',
    operationId: 'getItems',
    summary: 'Get up to 100 items at once',
    tags: ['Public reads'],
    security: ['apiKey'],
    query: z.object(positionQuery),
    requestHeaders: ['If-None-Match'],
    body: { schema: batchBodySchema, description: 'At most 1 MiB (after `Content-Encoding` gzip, deflate or br)' },
    responses: {
      '200': { description: 'The items found in request order, and the ids not found', body: batchAnswerSchema, headers: [...READ_HEADERS, ...CACHE_HEADERS, 'ETag'] },
      '304': notModified,
      '400': error('Invalid body (`Invalid dataId format`, `Too many dataIds: …`, `Request body is not valid JSON`, …)', READ_HEADERS),
      '413': error('Body over 1 MiB'),
      '415': error('`Content-Type` is not application/json, or an unknown `Content-Encoding`'),
      ...refusals,
    },
  },
  collectionPage: {
    method: 'get',
    path: '/public/collections/{slug}/data',
    operationId: 'getCollectionPage',
    summary: 'Get one page of a collection',
    description: 'Ties are ordered by dataId; items without the sort field come last.',
    tags: ['Public reads'],
    security: ['apiKey'],
    pathParams: z.object({ slug: slugSchema }),
    query: collectionQuerySchema.extend(positionQuery),
    requestHeaders: ['If-None-Match'],
    responses: {
      '200': { description: 'One page (empty past the last)', body: pageSchema, headers: [...READ_HEADERS, ...CACHE_HEADERS, 'ETag'] },
      '304': notModified,
      '400': error('Invalid page, limit, sort or order; the message names the allowed values', READ_HEADERS),
      '404': error('`Data not found` (the wording of the specification; also for a slug that cannot exist)', READ_HEADERS),
      ...refusals,
    },
  },
  subscribe: {
    method: 'get',
    path: '/subscribe',
    operationId: 'subscribe',
    summary: 'Live changes as Server-Sent Events',
    description:
      'Needs a plan with reactive mode. The stream: `connected`, then the snapshot (`update` per existing item, `update` per collection with its page 1), then `ready` with the position it is current at, then the changes (`update`, `delete`, each with `id: <position>`); a reconnect with `Last-Event-ID` or `from=` resumes after that position with no snapshot (`reset` first when it is older than the kept history); a `: ping` comment line every 15 s; at the end of its life (`ttlMs`) or when the server ends it, `reconnect` and close. Each event is `event: <name>` and one `data: <JSON>` line; `x-sse-events` gives the JSON of each. See docs/subscriptions.md.',
    tags: ['Live'],
    security: ['apiKeyQuery'],
    query: subscribeQuerySchema,
    requestHeaders: ['Last-Event-ID'],
    responses: {
      '200': {
        description: 'The stream',
        contentType: 'text/event-stream',
        text: { type: 'string', description: 'Server-Sent Events: connected, update, delete, ready, reset, reconnect; `: ping` heartbeat comments' },
        events: streamEventSchemas,
        headers: [...READ_HEADERS],
      },
      '400': error('Nothing to subscribe to, too many collections (25) or dataIds (100), an invalid slug or dataId, or `Invalid position` (from, Last-Event-ID)', READ_HEADERS),
      '401': refusals['401'],
      '403': error('`Domain not allowed for this API key`, or `Real-time subscriptions require a plan with reactive mode (Business or higher)`'),
      '404': error('`Collection not found: <slugs>`', READ_HEADERS),
      '429': error('The rate limit, or too many open streams for this key or address', [...RATE_HEADERS, 'Retry-After']),
      '503': error('A backend is unavailable, or a resume position is ahead of this node for longer than MIN_POSITION_WAIT_MS: retry', ['X-Request-Id', 'Retry-After']),
    },
  },
  changes: {
    method: 'get',
    path: '/public/collections/{slug}/changes',
    operationId: 'getCollectionChanges',
    summary: 'Every item change of a collection after a position',
    description:
      'In position order, each once. Read pages (X-Position P), then poll `changes?since=P` with each `nextSince`: nothing is missed. Changes are kept for RESUME_WINDOW (default 24 h); an older `since` is 410. See docs/public-api.md, Changes feed.',
    tags: ['Public reads'],
    security: ['apiKey'],
    pathParams: z.object({ slug: slugSchema }),
    query: changesQuerySchema.extend(positionQuery),
    responses: {
      '200': { description: 'The changes after `since`, at most `limit`', body: changesAnswerSchema, headers: [...READ_HEADERS, ...CACHE_HEADERS] },
      '400': error('`Invalid position` or `Invalid limit: …`', READ_HEADERS),
      '404': error('`Collection not found: <slug>`', READ_HEADERS),
      '410': error('`Position expired: re-read the collection`: `since` is older than the kept history', READ_HEADERS),
      ...refusals,
    },
  },
  // Further routes: one entry here, and their handler in publicRoutes.ts.
} as const satisfies Record<string, RouteContract>;

/** Every route of the public port, in the order of the document. */
export const publicRouteContracts = (): RouteContract[] => [...Object.values(publicContracts), ...operationsContracts({ metricsSecurity: [] })];
