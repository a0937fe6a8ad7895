import { describe, expect, it } from 'vitest';
import { createReadiness, failureText, summarizeReadiness, type ReadinessCheck } from './readiness.js';

const check = (name: string, required: boolean, probe: () => Promise<void>): ReadinessCheck => ({ name, required, probe });
const never = () => new Promise<void>(() => {});

describe('summarizeReadiness', () => {
  it('is ready (200) when every check passes, listing each as ok', () => {
    expect(summarizeReadiness([{ name: 'readModel', required: true, failure: null }, { name: 'changeStream', required: false, failure: null }], false)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { readModel: 'ok', changeStream: 'ok' } },
    });
  });

  it('is unavailable (503, {error, message} naming it) when a required dependency fails', () => {
    expect(summarizeReadiness([{ name: 'readModel', required: true, failure: 'Redis did not answer within 1000 ms' }, { name: 'changeStream', required: false, failure: null }], false)).toEqual({
      status: 503,
      body: {
        error: 'Service Unavailable',
        message: 'Not ready: readModel failing (Redis did not answer within 1000 ms)',
        status: 'unavailable',
        checks: { readModel: 'failing: Redis did not answer within 1000 ms', changeStream: 'ok' },
      },
    });
  });

  it('is degraded but 200 when only an optional dependency fails', () => {
    expect(summarizeReadiness([{ name: 'readModel', required: true, failure: null }, { name: 'changeStream', required: false, failure: 'no fetch for 6 s' }], false)).toEqual({
      status: 200,
      body: { status: 'degraded', checks: { readModel: 'ok', changeStream: 'failing: no fetch for 6 s' } },
    });
  });

  it('is draining (503) while the process leaves, whatever the checks say', () => {
    expect(summarizeReadiness([{ name: 'readModel', required: true, failure: null }], true)).toEqual({
      status: 503,
      body: { error: 'Service Unavailable', message: 'This server is shutting down', status: 'draining' },
    });
  });
});

describe('createReadiness', () => {
  it('bounds every probe by the timeout and names the one that did not answer', async () => {
    const readiness = createReadiness({ checks: [check('readModel', true, never), check('changeStream', false, async () => {})], timeoutMs: 30 });
    const report = await readiness.report();
    expect(report.status).toBe(503);
    expect(report.body.checks).toEqual({ readModel: 'failing: no answer within 30 ms', changeStream: 'ok' });
  });

  it('reports the innermost cause of a failure', async () => {
    const failing = async () => {
      throw new Error('Service temporarily unavailable', { cause: new Error('Redis did not answer within 1000 ms') });
    };
    const report = await createReadiness({ checks: [check('readModel', true, failing)], timeoutMs: 1_000 }).report();
    expect(report.body.checks).toEqual({ readModel: 'failing: Redis did not answer within 1000 ms' });
  });

  it('answers draining at once without asking any dependency', async () => {
    let asked = 0;
    const drain = { draining: true };
    const report = await createReadiness({ checks: [check('readModel', true, async () => void asked++)], timeoutMs: 1_000, drain }).report();
    expect(report.status).toBe(503);
    expect(report.body.status).toBe('draining');
    expect(asked).toBe(0);
  });
});

describe('failureText', () => {
  it('takes the message of the innermost cause, or the value itself', () => {
    expect(failureText(new Error('outer', { cause: new Error('inner') }))).toBe('inner');
    expect(failureText('plain')).toBe('plain');
  });
});
