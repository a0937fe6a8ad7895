import { describe, expect, it } from 'vitest';
import { created, keyCreated, noContent, ok } from './writeAnswers.js';

describe('write answers', () => {
  it('201 for a creation, 200 for an update, the resource as the body; deletes 204 without one', () => {
    expect(created({ value: { slug: 'books' }, created: true })).toEqual({ status: 201, body: { slug: 'books' } });
    expect(created({ value: { slug: 'books' }, created: false })).toEqual({ status: 200, body: { slug: 'books' } });
    expect(ok({ value: 1, created: true })).toEqual({ status: 200, body: 1 });
    expect(noContent()).toEqual({ status: 204, body: null });
  });

  it('a new key says to copy it now; a replay, that it was shown once', () => {
    const view = { keyId: 'k', name: 'n', type: 'live' as const, maskedKey: 'm', allowedDomains: [], rateLimit: 1, createdAt: 'c', lastUsedAt: null, requestCount: 0 };
    expect(keyCreated({ value: { ...view, key: 'pk_live_x' }, created: true })).toEqual({ status: 201, body: { ...view, key: 'pk_live_x', message: 'Copy the key now: it is shown only once' } });
    expect(keyCreated({ value: { ...view, key: null }, created: true }).body).toMatchObject({ key: null, message: expect.stringContaining('shown only once, at creation') });
  });
});
