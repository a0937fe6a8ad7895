import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

const KEY = 'pk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345';

const capture = () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { lines, logger: createLogger({ level: 'info', name: 'test', destination }) };
};

describe('createLogger', () => {
  it('writes JSON lines with name, level and time', () => {
    const { lines, logger } = capture();
    logger.info({ route: '/x' }, 'hello');
    const line = JSON.parse(lines[0] ?? '{}');
    expect(line).toMatchObject({ name: 'test', level: 'info', msg: 'hello', route: '/x' });
    expect(typeof line.time).toBe('string');
  });

  it('redacts X-API-Key, Authorization and cookies in logged headers', () => {
    const { lines, logger } = capture();
    logger.info({ req: { headers: { 'x-api-key': KEY, authorization: 'Bearer s3cret-admin-token', cookie: 'sid=abc', accept: 'json' } } });
    const text = lines.join('');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('s3cret-admin-token');
    expect(text).not.toContain('sid=abc');
    expect(JSON.parse(text).req.headers.accept).toBe('json');
  });

  it('redacts the apiKey query parameter in URLs and raw keys in messages and errors', () => {
    const { lines, logger } = capture();
    logger.info({ url: `/subscribe?collections=a&apiKey=${KEY}&dataIds=b` }, `request with ${KEY}`);
    logger.error(new Error(`bad key ${KEY}`));
    logger.warn({ err: new Error(`Authorization: Bearer tok-123456`) }, 'failed');
    const text = lines.join('');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('AbCdEfGh');
    expect(text).not.toContain('tok-123456');
    expect(text).toContain('collections=a');
    expect(text).toContain('dataIds=b');
  });

  it('respects the level', () => {
    const { lines, logger } = capture();
    logger.debug('hidden');
    expect(lines).toHaveLength(0);
  });
});

describe('error logging', () => {
  it('keeps the error type and message', () => {
    const { lines, logger } = capture();
    logger.warn({ err: new TypeError('boom') }, 'failed');
    expect(JSON.parse(lines[0] ?? '{}').err).toMatchObject({ type: 'TypeError', message: 'boom' });
  });
});
