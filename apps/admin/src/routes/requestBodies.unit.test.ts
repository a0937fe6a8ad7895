import { describe, expect, it } from 'vitest';
import { createCollectionBody, createKeyBody, setPlanBody, updateCollectionBody, updateKeyBody } from './requestBodies.js';

describe('admin request bodies', () => {
  it('fill the defaults a client may leave out', () => {
    expect(createCollectionBody.parse({ slug: 'books', name: ' Books ' })).toEqual({ slug: 'books', name: 'Books', sortableFields: [] });
    expect(createKeyBody.parse({ name: 'Website', type: 'test' })).toEqual({ name: 'Website', type: 'test', allowedDomains: [] });
  });

  it('refuse unknown fields, empty updates and bad values', () => {
    expect(createCollectionBody.safeParse({ slug: 'books', name: 'Books', extra: 1 }).success).toBe(false);
    expect(updateCollectionBody.safeParse({}).error?.issues[0]?.message).toBe('Give name and/or sortableFields');
    expect(updateKeyBody.safeParse({}).error?.issues[0]?.message).toBe('Give name, allowedDomains and/or rateLimit');
    expect(createKeyBody.safeParse({ name: '', type: 'live' }).error?.issues[0]?.message).toBe('must not be empty');
    expect(createKeyBody.safeParse({ name: 'n', type: 'live', rateLimit: 1.5 }).error?.issues[0]?.message).toBe('must be an integer');
    expect(setPlanBody.safeParse({ plan: 'platinum' }).success).toBe(false);
    expect(setPlanBody.parse({ plan: 'free', monthlyQuota: null })).toEqual({ plan: 'free', monthlyQuota: null });
  });
});
