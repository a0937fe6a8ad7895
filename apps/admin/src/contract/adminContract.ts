import { dataIdSchema, slugSchema } from '@pubstream/domain';
import { operationsContracts, type RouteContract } from '@pubstream/http';
import { z } from 'zod';
import { accepted, acceptedDeleteSchema, collectionViewSchema, importSummarySchema, itemViewSchema, keyViewSchema, newKeySchema, planViewSchema, usageReportSchema } from '../adminSchemas.js';
import { createCollectionBody, createKeyBody, putItemBody, setPlanBody, updateCollectionBody, updateKeyBody } from '../routes/requestBodies.js';
import { usageQuery } from '../routes/usageQuery.js';
import { adminError, bodyRefusals, tokenRefusals, written } from './adminResponses.js';

// The admin API's route table (docs/admin-api.md): one entry per route, mounted by the route
// modules (routes/*.ts) and the only source of the admin port's GET /openapi.json.

const slug = z.object({ slug: slugSchema });
const item = z.object({ slug: slugSchema, dataId: dataIdSchema });
const keyId = z.object({ keyId: z.string() });
const list = <T extends z.ZodType>(schema: T, id: string) => z.object({ data: z.array(schema) }).meta({ id });
const deleted = {
  '204': { description: 'Deleted', headers: ['X-Request-Id', 'Idempotent-Replayed', 'X-Position'] },
  '202': { description: 'Committed, not yet confirmed by the read model', body: acceptedDeleteSchema, headers: ['X-Request-Id', 'Idempotent-Replayed', 'X-Position'] },
};
const base = { security: ['adminToken'] as const };
const write = { ...base, requestHeaders: ['Idempotency-Key'] as const };
const badRequest = (what: string) => adminError(`Invalid ${what}; the message names the field`);

const collections = {
  listCollections: { ...base, method: 'get', path: '/admin/collections', summary: 'List collections', tags: ['Collections'], responses: { '200': { description: 'Every collection', body: list(collectionViewSchema, 'CollectionList') }, ...tokenRefusals } },
  createCollection: {
    ...write, method: 'post', path: '/admin/collections', summary: 'Create a collection', tags: ['Collections'], body: { schema: createCollectionBody },
    responses: { ...written('201', 'Created', collectionViewSchema, accepted(collectionViewSchema, 'AcceptedCollection'), ['Location']), '400': badRequest('body'), '409': adminError('The slug exists'), ...bodyRefusals, ...tokenRefusals },
  },
  getCollection: { ...base, method: 'get', path: '/admin/collections/{slug}', summary: 'Get a collection', tags: ['Collections'], pathParams: slug, responses: { '200': { description: 'The collection', body: collectionViewSchema }, '404': adminError('`Collection "<slug>" not found`'), ...tokenRefusals } },
  updateCollection: {
    ...write, method: 'patch', path: '/admin/collections/{slug}', summary: 'Rename a collection or change its sortable fields', tags: ['Collections'], pathParams: slug, body: { schema: updateCollectionBody },
    responses: { ...written('200', 'Updated', collectionViewSchema, accepted(collectionViewSchema, 'AcceptedCollection')), '400': badRequest('body'), '404': adminError('`Collection "<slug>" not found`'), ...bodyRefusals, ...tokenRefusals },
  },
  deleteCollection: {
    ...write, method: 'delete', path: '/admin/collections/{slug}', summary: 'Delete a collection and its items', tags: ['Collections'], pathParams: slug,
    responses: { ...deleted, '404': adminError('`Collection "<slug>" not found`'), '422': bodyRefusals['422'], ...tokenRefusals },
  },
};

const items = {
  importItems: {
    ...write, method: 'post', path: '/admin/collections/{slug}/items:import', summary: 'Import items from NDJSON', tags: ['Items'], pathParams: slug,
    description: 'One JSON object `{"dataId", "data"}` per line; each line is bounded, not the body. Compressed bodies (gzip, deflate, br) are accepted.',
    body: { schema: z.string().meta({ description: 'NDJSON: one `{"dataId": "…", "data": {…}}` per line' }), contentTypes: ['application/x-ndjson'] },
    responses: {
      ...written('200', 'What was imported, line by line (a bad line fails alone)', importSummarySchema, accepted(importSummarySchema, 'AcceptedImport')),
      '400': adminError('A corrupt compressed body'),
      '404': adminError('`Collection "<slug>" not found`'),
      '415': bodyRefusals['415'],
      '422': bodyRefusals['422'],
      ...tokenRefusals,
    },
  },
  getItem: {
    ...base, method: 'get', path: '/admin/collections/{slug}/items/{dataId}', summary: 'Get an item', tags: ['Items'], pathParams: item,
    responses: { '200': { description: 'The item', body: itemViewSchema }, '400': adminError('`Invalid dataId format`'), '404': adminError('Collection or item not found'), ...tokenRefusals },
  },
  putItem: {
    ...write, method: 'put', path: '/admin/collections/{slug}/items/{dataId}', summary: 'Create or replace an item', tags: ['Items'], pathParams: item, body: { schema: putItemBody },
    responses: {
      ...written('201', 'Created', itemViewSchema, accepted(itemViewSchema, 'AcceptedItem')),
      '200': { description: 'Updated (or unchanged)', body: itemViewSchema, headers: ['X-Request-Id', 'Idempotent-Replayed', 'X-Position'] },
      '400': badRequest('dataId or body'), '404': adminError('`Collection "<slug>" not found`'), '409': adminError('The dataId belongs to another collection'), ...bodyRefusals, ...tokenRefusals,
    },
  },
  deleteItem: {
    ...write, method: 'delete', path: '/admin/collections/{slug}/items/{dataId}', summary: 'Delete an item', tags: ['Items'], pathParams: item,
    responses: { ...deleted, '400': adminError('`Invalid dataId format`'), '404': adminError('Collection or item not found'), '422': bodyRefusals['422'], ...tokenRefusals },
  },
};

const keys = {
  listKeys: { ...base, method: 'get', path: '/admin/keys', summary: 'List API keys (masked)', tags: ['API keys'], responses: { '200': { description: 'Every key', body: list(keyViewSchema, 'KeyList') }, ...tokenRefusals } },
  createKey: {
    ...write, method: 'post', path: '/admin/keys', summary: 'Create an API key', tags: ['API keys'], body: { schema: createKeyBody },
    responses: { ...written('201', 'The full key, shown only once', newKeySchema, accepted(newKeySchema, 'AcceptedNewKey')), '400': badRequest('body'), ...bodyRefusals, ...tokenRefusals },
  },
  getKey: { ...base, method: 'get', path: '/admin/keys/{keyId}', summary: 'Get an API key (masked)', tags: ['API keys'], pathParams: keyId, responses: { '200': { description: 'The key', body: keyViewSchema }, '404': adminError('`API key "<keyId>" not found`'), ...tokenRefusals } },
  updateKey: {
    ...write, method: 'patch', path: '/admin/keys/{keyId}', summary: 'Rename a key, or change its domains or rate limit', tags: ['API keys'], pathParams: keyId, body: { schema: updateKeyBody },
    responses: { ...written('200', 'Updated', keyViewSchema, accepted(keyViewSchema, 'AcceptedKey')), '400': badRequest('body'), '404': adminError('`API key "<keyId>" not found`'), ...bodyRefusals, ...tokenRefusals },
  },
  deleteKey: { ...write, method: 'delete', path: '/admin/keys/{keyId}', summary: 'Delete an API key (refused at once)', tags: ['API keys'], pathParams: keyId, responses: { ...deleted, '404': adminError('`API key "<keyId>" not found`'), '422': bodyRefusals['422'], ...tokenRefusals } },
};

const project = {
  getPlan: { ...base, method: 'get', path: '/admin/plan', summary: 'Get the plan', tags: ['Plan and usage'], responses: { '200': { description: 'The plan and its limits', body: planViewSchema }, ...tokenRefusals } },
  setPlan: {
    ...write, method: 'put', path: '/admin/plan', summary: 'Change the plan', tags: ['Plan and usage'], body: { schema: setPlanBody },
    responses: { ...written('200', 'The new plan', planViewSchema, accepted(planViewSchema, 'AcceptedPlan')), '400': badRequest('body'), ...bodyRefusals, ...tokenRefusals },
  },
  usage: {
    ...base, method: 'get', path: '/admin/usage', summary: 'Requests per key and bucket', tags: ['Plan and usage'], query: usageQuery,
    responses: { '200': { description: 'Per key: lifetime totals and the requests per bucket in the range', body: usageReportSchema }, '400': badRequest('query (granularity, from, to, or a range of over 1000 buckets)'), ...tokenRefusals },
  },
};

const withIds = (routes: Record<string, Omit<RouteContract, 'operationId'>>): Record<string, RouteContract> =>
  Object.fromEntries(Object.entries(routes).map(([operationId, route]) => [operationId, { ...route, operationId }]));

const routes = { ...collections, ...items, ...keys, ...project };
export type AdminOperation = keyof typeof routes;

/** The admin API's routes by operation id. */
export const adminContracts = withIds(routes as Record<string, Omit<RouteContract, 'operationId'>>);

/** The contract of one admin route: each route module mounts its own routes by it. */
export const adminContract = (operationId: AdminOperation): RouteContract => adminContracts[operationId] as RouteContract;

/** Every route of the admin port but the dashboard's pages, in the order of the document. */
export const adminRouteContracts = (): RouteContract[] => [
  ...Object.values(adminContracts),
  ...operationsContracts({ metricsSecurity: ['adminToken'], metricsRefusals: { '401': tokenRefusals['401'], '429': tokenRefusals['429'] } }),
];
