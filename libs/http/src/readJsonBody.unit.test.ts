import Koa from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJsonBody } from './readJsonBody.js';

/** A Koa context whose request carries `headers` and the bytes of `body` (none when undefined). */
const contextFor = (headers: Record<string, string>, body?: string) => {
  const req = Object.assign(Readable.from(body === undefined ? [] : [Buffer.from(body)]), { headers, method: 'POST', url: '/x', socket: {} }) as unknown as IncomingMessage;
  const res = { statusCode: 404, headersSent: false, getHeader: () => undefined, setHeader: () => undefined } as unknown as ServerResponse;
  return new Koa().createContext(req, res);
};

describe('readJsonBody', () => {
  it('reads a JSON body', async () => {
    const ctx = contextFor({ 'content-type': 'application/json; charset=utf-8', 'content-length': '13' }, '{"dataIds":1}');
    expect(await readJsonBody(ctx)).toEqual({ dataIds: 1 });
    expect(await readJsonBody(contextFor({ 'content-type': 'Application/JSON', 'content-length': '2' }, '{}'))).toEqual({});
    expect(await readJsonBody(contextFor({ 'content-type': 'application/vnd.api+json', 'content-length': '2' }, '{}'))).toEqual({});
  });

  it('takes a request that says JSON but sends no body at all (no Content-Length) as an empty object, not as the wrong media type', async () => {
    expect(await readJsonBody(contextFor({ 'content-type': 'application/json' }))).toEqual({});
    expect(await readJsonBody(contextFor({ 'content-type': 'application/json', 'content-length': '0' }))).toEqual({});
  });

  it('refuses another media type with 415, with or without a body', async () => {
    await expect(readJsonBody(contextFor({ 'content-type': 'text/plain', 'content-length': '2' }, '{}'))).rejects.toMatchObject({ status: 415, message: 'Content-Type must be application/json' });
    await expect(readJsonBody(contextFor({}))).rejects.toMatchObject({ status: 415 });
  });
});
