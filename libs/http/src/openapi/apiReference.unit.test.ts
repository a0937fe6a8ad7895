import { createLogger } from '@pubstream/observability';
import Koa from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { errorMiddleware } from '../errorMiddleware.js';
import { API_REFERENCE_PATHS, apiReference } from './apiReference.js';

const logger = createLogger({ level: 'silent', name: 'test', destination: new Writable({ write: (_chunk, _encoding, done) => done() }) });

/** A Koa context for one request, without a socket. */
const contextFor = (method: string, url: string) => {
  const headers: Record<string, unknown> = {};
  const req = { headers: {}, method, url, socket: {} } as unknown as IncomingMessage;
  const res = {
    statusCode: 404,
    headersSent: false,
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = value),
    getHeader: (name: string) => headers[name.toLowerCase()],
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeaders: () => headers,
    hasHeader: (name: string) => name.toLowerCase() in headers,
  } as unknown as ServerResponse;
  return new Koa().createContext(req, res);
};

/** The error middleware around the reference, as both apps mount them, with no route behind. */
const answer = async (method: string, url: string) => {
  const ctx = contextFor(method, url);
  const reference = apiReference({ document: { openapi: '3.1.0' }, title: 'Test API' });
  await errorMiddleware({ logger })(ctx, () => reference(ctx, async () => undefined));
  return { status: ctx.status, allow: ctx.response.get('Allow'), body: typeof ctx.body === 'string' && ctx.body !== '' ? (JSON.parse(ctx.body) as unknown) : ctx.body };
};

describe('apiReference', () => {
  it('serves the document on GET', async () => {
    expect(await answer('GET', API_REFERENCE_PATHS.document)).toMatchObject({ status: 200, body: { openapi: '3.1.0' } });
  });

  it.each(Object.values(API_REFERENCE_PATHS))('answers another method on %s with 405 and Allow, not 404 "No route"', async (path) => {
    expect(await answer('POST', path)).toEqual({
      status: 405,
      allow: 'HEAD, GET',
      body: { error: 'Method Not Allowed', message: 'Method POST not allowed; allowed: HEAD, GET' },
    });
  });

  it.each(Object.values(API_REFERENCE_PATHS))('answers OPTIONS on %s with 204 and Allow, as every route does', async (path) => {
    expect(await answer('OPTIONS', path)).toMatchObject({ status: 204, allow: 'HEAD, GET' });
  });

  it('leaves every other path to the routes behind it', async () => {
    expect(await answer('POST', '/openapi.jsonx')).toMatchObject({ status: 404, body: { message: 'No route for POST /openapi.jsonx' } });
  });
});
