import { describe, expect, it } from 'vitest';
import { clientErrorAnswer } from './clientError.js';
import { rawJsonResponse } from './rawJsonResponse.js';

describe('clientErrorAnswer', () => {
  it('maps the parser and timer errors Node raises to statuses', () => {
    expect(clientErrorAnswer('HPE_HEADER_OVERFLOW').status).toBe(431);
    expect(clientErrorAnswer('HPE_CHUNK_EXTENSIONS_OVERFLOW').status).toBe(413);
    expect(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT').status).toBe(408);
    expect(clientErrorAnswer('HPE_INVALID_METHOD')).toEqual({ status: 400, message: 'Malformed HTTP request' });
    expect(clientErrorAnswer(undefined).status).toBe(400);
  });
});

describe('rawJsonResponse', () => {
  it('writes a complete answer with a JSON body and its exact length', () => {
    const raw = rawJsonResponse(431, 'Too big é', { 'Retry-After': '1' });
    const [head, body] = raw.split('\r\n\r\n') as [string, string];
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 431 Request Header Fields Too Large',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'Retry-After: 1',
      'Connection: close',
    ]);
    expect(JSON.parse(body)).toEqual({ error: 'Request Header Fields Too Large', message: 'Too big é' });
  });
});
