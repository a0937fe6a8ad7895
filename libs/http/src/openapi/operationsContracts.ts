import { z } from 'zod';
import { API_REFERENCE_PATHS } from './apiReference.js';
import { errorBodySchema } from './errorBodySchema.js';
import type { HeaderContract, RouteContract } from './routeContract.js';

const checks = z.record(z.string(), z.string()).meta({ description: 'Each dependency: `ok` or `failing: <why>`' });

export const readyBodySchema = z
  .object({ status: z.enum(['ready', 'degraded']).meta({ description: '`degraded`: an optional dependency fails; the node serves what it can' }), checks })
  .meta({ id: 'Ready' });

export const notReadyBodySchema = z
  .object({ ...errorBodySchema.shape, status: z.enum(['unavailable', 'draining']), checks: checks.optional() })
  .meta({ id: 'NotReady', description: 'A required dependency fails (`unavailable`, naming it) or the node is shutting down (`draining`).' });

export const healthBodySchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

/** Headers every route of both APIs may carry. */
export const commonHeaders: Readonly<Record<string, HeaderContract>> = {
  'X-Request-Id': {
    description: 'The request id: the client\'s own `X-Request-Id` when it is 1–128 of `A-Za-z0-9._:-`, else a new one. On every answer and in every log line of the request.',
    schema: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/),
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: z.number().int().min(0) },
  Allow: { description: 'The methods of the route', schema: z.string() },
};

const text = (description: string) => ({ type: 'string', description });

/** The document and its reference page (apiReference.ts), public on both ports. */
const REFERENCE_CONTRACTS: readonly RouteContract[] = [
  {
    method: 'get',
    path: API_REFERENCE_PATHS.document,
    operationId: 'openApiDocument',
    summary: 'This OpenAPI 3.1 document',
    tags: ['Operations'],
    security: [],
    responses: { '200': { description: 'The document, generated from the schemas that validate the requests', contentType: 'application/json', text: { type: 'object' }, headers: ['X-Request-Id'] } },
  },
  {
    method: 'get',
    path: API_REFERENCE_PATHS.page,
    operationId: 'apiReference',
    summary: 'A readable reference of this API (rendered from /openapi.json)',
    tags: ['Operations'],
    security: [],
    responses: { '200': { description: 'An HTML page', contentType: 'text/html', text: text('HTML'), headers: ['X-Request-Id'] } },
  },
  {
    method: 'get',
    path: API_REFERENCE_PATHS.renderer,
    operationId: 'apiReferenceRenderer',
    summary: 'The reference page\'s renderer (Redoc, served from this server)',
    tags: ['Operations'],
    security: [],
    responses: { '200': { description: 'JavaScript', contentType: 'text/javascript', text: text('JavaScript'), headers: ['X-Request-Id'] } },
  },
];

/**
 * /healthz, /readyz, /metrics and the reference (docs/operations.md): the same on both ports, but
 * for who may read the metrics (`metricsSecurity`: none on the public port, the admin token on the
 * admin port).
 */
export const operationsContracts = (options: { readonly metricsSecurity: readonly string[]; readonly metricsRefusals?: RouteContract['responses'] }): RouteContract[] => [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness: the process answers',
    tags: ['Operations'],
    security: [],
    responses: { '200': { description: 'Alive', body: healthBodySchema, headers: ['X-Request-Id'] } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    summary: 'Readiness: the dependencies answer too',
    description: 'Each dependency is named; see docs/operations.md, "Readiness".',
    tags: ['Operations'],
    security: [],
    responses: {
      '200': { description: 'Ready, or degraded', body: readyBodySchema, headers: ['X-Request-Id'] },
      '503': { description: 'Not ready, or draining', body: notReadyBodySchema, headers: ['X-Request-Id', 'Retry-After'] },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    tags: ['Operations'],
    security: options.metricsSecurity,
    responses: {
      '200': { description: 'The Prometheus text format', contentType: 'text/plain', text: text('Prometheus exposition format 0.0.4'), headers: ['X-Request-Id'] },
      ...options.metricsRefusals,
    },
  },
  ...REFERENCE_CONTRACTS,
];
