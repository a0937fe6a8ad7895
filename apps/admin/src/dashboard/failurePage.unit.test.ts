import { describe, expect, it } from 'vitest';
import { NotFoundError, ServiceUnavailableError } from '@pubstream/domain';
import { failurePage } from './failurePage.js';

describe('failurePage', () => {
  it('shows a backend that cannot answer as a 503 page with Retry-After, never as not found or empty', () => {
    const page = failurePage(new ServiceUnavailableError('The data is being rebuilt; try again shortly'), '/dashboard/keys');
    expect(page).toMatchObject({ status: 503, title: 'Temporarily unavailable', retryAfterSeconds: 1, log: 'warn' });
    expect(page.body.value).toContain('The data is being rebuilt; try again shortly');
    expect(page.body.value).toContain('href="/dashboard/keys"');
  });

  it('shows a fault as a 500 that reveals nothing of its cause', () => {
    const page = failurePage(new Error('SQLITE_CORRUPT at /secret/path'), '/dashboard/keys');
    expect(page).toMatchObject({ status: 500, retryAfterSeconds: null, log: 'error' });
    expect(page.body.value).not.toContain('SQLITE');
  });

  it('shows a refusal with its reason, unlogged, and escapes it', () => {
    const page = failurePage(new NotFoundError('No dashboard page at /dashboard/<x>'), '/dashboard/<x>');
    expect(page).toMatchObject({ status: 404, title: 'Not found', log: null });
    expect(page.body.value).toContain('/dashboard/&lt;x&gt;');
  });
});
