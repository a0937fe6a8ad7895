import { describe, expect, it } from 'vitest';
import { createMemoryStreamSlots } from '@pubstream/access';
import { createStreamAdmission } from './streamAdmission.js';

const request = (streamId: string, address = '203.0.113.7', keyId = 'k1') => ({ address, keyId, streamId, limit: 2, planName: 'business' });

describe('StreamAdmission', () => {
  it('given the per-key cap, then a third stream of the key is refused (429) and takes nothing; a release frees one, once', async () => {
    const admission = createStreamAdmission({ slots: createMemoryStreamSlots(), maxStreamsPerAddress: 0 });
    const first = await admission.admit(request('s1'));
    await admission.admit(request('s2', '198.51.100.1'));
    await expect(admission.admit(request('s3'))).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/^Too many concurrent streams for this API key: the business plan allows 2/) });
    expect(admission.streamsFrom('203.0.113.7')).toBe(1);
    first();
    first();
    await admission.admit(request('s3'));
    await expect(admission.admit(request('s4'))).rejects.toMatchObject({ status: 429 });
    admission.close();
  });

  it('given the per-address cap, then addresses of one IPv6 /64 count together, and other addresses are not affected', async () => {
    const admission = createStreamAdmission({ slots: createMemoryStreamSlots(), maxStreamsPerAddress: 2 });
    await admission.admit({ ...request('a'), address: '2001:db8:1:2::10', limit: 100 });
    await admission.admit({ ...request('b'), address: '2001:db8:1:2::11', limit: 100 });
    await expect(admission.admit({ ...request('c'), address: '2001:db8:1:2:ffff::1', limit: 100 })).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: 5,
      message: 'Too many concurrent streams from this address: at most 2 per server. Close a stream before opening another.',
    });
    await admission.admit({ ...request('d'), address: '2001:db8:1:3::1', limit: 100 });
    admission.close();
  });
});
