import { createLogger, createMetricsRegistry } from '@pubstream/observability';
import { ValidationError } from '@pubstream/domain';
import Koa from 'koa';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { errorMiddleware } from './errorMiddleware.js';
import { requestContext, requestIdOf } from './requestContext.js';
import { requestMetrics } from './requestMetrics.js';

/** A logger whose JSON lines land in `lines`. */
const memoryLogger = () => {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', name: 'test', destination }) };
};

/** Runs one request through Koa's composed middleware without a socket. */
const run = async (app: Koa, headers: Record<string, string> = {}) => {
  const response = await new Promise<{ status: number; headers: Record<string, unknown>; body: unknown }>((resolve) => {
    const req = Object.assign(Object.create(null) as object, { headers, method: 'GET', url: '/x', socket: {} });
    const res = {
      statusCode: 404,
      headersSent: false,
      _headers: {} as Record<string, unknown>,
      setHeader(name: string, value: unknown) {
        this._headers[name.toLowerCase()] = value;
      },
      getHeader(name: string) {
        return this._headers[name.toLowerCase()];
      },
      removeHeader(name: string) {
        delete this._headers[name.toLowerCase()];
      },
      getHeaders() {
        return this._headers;
      },
      hasHeader(name: string) {
        return name.toLowerCase() in this._headers;
      },
      end(body: unknown) {
        resolve({ status: this.statusCode, headers: this._headers, body });
      },
      writable: true,
      once() {},
      on() {},
    };
    void app.callback()(req as never, res as never);
  });
  return response;
};

describe('requestContext', () => {
  it('keeps a sane X-Request-Id, replaces a strange one, and echoes it on refusals too', async () => {
    const { logger } = memoryLogger();
    const ids: (string | undefined)[] = [];
    const app = new Koa();
    app.use(requestContext({ logger, newId: () => 'generated-1' }));
    app.use(errorMiddleware({ logger }));
    app.use(async (ctx) => {
      ids.push(requestIdOf(ctx));
      throw new ValidationError('nope');
    });
    expect((await run(app, { 'x-request-id': 'abc-123' })).headers['x-request-id']).toBe('abc-123');
    const strange = await run(app, { 'x-request-id': 'has spaces and\ttabs' });
    expect(strange.headers['x-request-id']).toBe('generated-1');
    expect(strange.status).toBe(400);
    expect(ids).toEqual(['abc-123', 'generated-1']);
  });

  it('puts the id in the log lines of the request, and writes an access line when asked', async () => {
    const { lines, logger } = memoryLogger();
    const app = new Koa();
    app.use(requestContext({ logger, accessLog: true, newId: () => 'r-1' }));
    app.use(errorMiddleware({ logger }));
    app.use(async () => {
      throw new Error('boom');
    });
    await run(app);
    expect(lines.map((line) => [line.msg, line.requestId])).toEqual([
      ['request failed', 'r-1'],
      ['request', 'r-1'],
    ]);
    expect(lines[1]).toMatchObject({ method: 'GET', path: '/x', status: 500 });
  });
});

describe('requestMetrics', () => {
  it('counts a refusal with the status actually answered (registered outside the error middleware)', async () => {
    const { logger } = memoryLogger();
    const registry = createMetricsRegistry({ app: 'test', collectDefaults: false });
    const app = new Koa();
    app.use(requestMetrics(registry));
    app.use(errorMiddleware({ logger }));
    app.use(async () => {
      throw new ValidationError('nope');
    });
    await run(app);
    expect(await registry.metrics()).toContain('http_requests_total{method="GET",route="unmatched",status="400",app="test"} 1');
  });
});
