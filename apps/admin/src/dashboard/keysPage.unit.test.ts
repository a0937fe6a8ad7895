import { describe, expect, it } from 'vitest';
import type { KeyView, PlanView } from '../adminService.js';
import { emptyKeyForm } from './keyForm.js';
import { keysPage } from './keysPage.js';

const plan: PlanView = { plan: 'pro', monthlyQuota: null, limits: { defaultRateLimit: 1_000, maxRateLimit: 10_000, reactive: false, maxStreamsPerKey: 0 } };
const key = (name: string): KeyView => ({
  keyId: 'k1',
  name,
  type: 'live',
  maskedKey: 'pk_live_…abcd',
  allowedDomains: ['example.com'],
  rateLimit: 500,
  createdAt: '2026-11-23T10:00:00.000Z',
  lastUsedAt: null,
  requestCount: 1234,
});

describe('keys page', () => {
  it('escapes what operators typed (key names)', () => {
    const markup = keysPage({ keys: [key('<script>alert(1)</script>')], plan, flash: null, csrfToken: 't', values: emptyKeyForm, errors: {} }).value;
    expect(markup).not.toContain('<script>alert(1)');
    expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('shows the new key with the warning only when the flash carries it', () => {
    const created = keysPage({
      keys: [key('Site')],
      plan,
      flash: { kind: 'created', key: 'pk_live_0123456789abcdefghijABCDEFGHIJkl', name: 'Site', keyId: 'k1' },
      csrfToken: 't',
      values: emptyKeyForm,
      errors: {},
    }).value;
    expect(created).toContain('value="pk_live_0123456789abcdefghijABCDEFGHIJkl"');
    expect(created).toContain('it will not be shown again');
    const later = keysPage({ keys: [key('Site')], plan, flash: null, csrfToken: 't', values: emptyKeyForm, errors: {} }).value;
    expect(later).not.toContain('pk_live_0123');
    expect(later).toContain('1,234');
    expect(later).toContain('max="10000"');
  });

  it('links each field to its error and marks it invalid', () => {
    const markup = keysPage({ keys: [], plan, flash: null, csrfToken: 't', values: emptyKeyForm, errors: { rateLimit: 'too high' } }).value;
    expect(markup).toMatch(/id="create-rate"[^>]*aria-describedby="create-rate-hint create-rate-error" aria-invalid="true"/);
    expect(markup).toContain('<p class="field-error" id="create-rate-error">too high</p>');
  });
});
