import { describe, expect, it } from 'vitest';
import { koaContext } from '../testing/koaContext.js';
import { stateOf } from './dashboardState.js';
import { guardedForm } from './formGuard.js';
import type { Session } from './sessionStore.js';

const session: Session = { id: 's', csrfToken: 'token-1', createdAt: 0, lastSeenAt: 0, flash: null };
const ORIGIN = 'http://127.0.0.1:8081';

const post = (headers: Record<string, string>, form: Record<string, string>) => {
  const ctx = koaContext({ method: 'POST', path: '/dashboard/keys', headers, form });
  Object.assign(stateOf(ctx), { nonce: 'n', session });
  return ctx;
};

describe('guardedForm', () => {
  it('hands over the session and the form of a same-origin post with the session CSRF token', async () => {
    const guarded = await guardedForm(post({ origin: ORIGIN }, { csrf: 'token-1', name: 'Website' }));
    expect(guarded?.session).toBe(session);
    expect(guarded?.form.get('name')).toBe('Website');
  });

  it('refuses a post from another origin (even another port of this host) with 403, before reading it', async () => {
    const ctx = post({ origin: 'http://127.0.0.1:9999' }, { csrf: 'token-1' });
    expect(await guardedForm(ctx)).toBeNull();
    expect(ctx.status).toBe(403);
    expect(String(ctx.body)).toContain('Origin check');
    expect(ctx.req.readableEnded).toBe(false);
  });

  it('refuses a post without the right CSRF token with 403', async () => {
    for (const form of [{}, { csrf: 'token-2' }] as Record<string, string>[]) {
      const ctx = post({ 'sec-fetch-site': 'same-origin' }, form);
      expect(await guardedForm(ctx)).toBeNull();
      expect(ctx.status).toBe(403);
      expect(String(ctx.body)).toContain('CSRF check');
    }
  });
});
