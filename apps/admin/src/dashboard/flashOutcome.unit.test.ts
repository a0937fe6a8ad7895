import { ConflictError, ServiceUnavailableError } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { flashOutcome } from './flashOutcome.js';

describe('flashOutcome', () => {
  it('passes the action message on', async () => {
    expect(await flashOutcome(async () => ({ kind: 'notice', message: 'Saved.' }))).toEqual({ kind: 'notice', message: 'Saved.' });
  });

  it('turns a refusal (4xx) into an error message for the next page', async () => {
    expect(await flashOutcome(async () => Promise.reject(new ConflictError('Lower them first')))).toEqual({ kind: 'error', message: 'Lower them first' });
  });

  it('throws server faults on, ours (5xx) or not', async () => {
    await expect(flashOutcome(async () => Promise.reject(new ServiceUnavailableError('down')))).rejects.toMatchObject({ status: 503 });
    await expect(flashOutcome(async () => Promise.reject(new TypeError('bug')))).rejects.toBeInstanceOf(TypeError);
  });
});
