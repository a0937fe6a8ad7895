import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { ADMIN_TOKEN, adminHttp } from '../../apps/cli/src/distributed/testing/adminHttp.js';
import { usePrivateRedisCluster } from './support/privateRedisCluster.js';
import { runResumeChaos } from './support/resumeChaos.js';

// Resumes under chaos (issue 17): subscribers cut at random moments during a burst of writes
// resume on a random node with their last id, and miss nothing, see nothing twice.

const ORIGIN = 'https://chaos.example.com';

describeWithBackend('kafka', 'resume chaos on the distributed profile: two API nodes, real Redis and Kafka', (brokers) => {
  const setup = usePrivateRedisCluster(brokers, { apis: 2, projectors: 1 });

  it('50 subscribers cut at random during 2,000 writes resume on a random node: every version once, in order; pages equal a fresh read', async () => {
    const { connects } = await runResumeChaos({
      nodes: setup.cluster.apis.map((node) => node.url),
      admin: setup.cluster.adminApi,
      adminUrl: setup.cluster.admin.url,
      adminToken: ADMIN_TOKEN,
      origin: ORIGIN,
    });
    // The cuts happened: far more streams than subscribers.
    expect(connects).toBeGreaterThan(100);
  }, 360_000);
});

describe('resume chaos on the embedded profile', () => {
  let service: AllInOne;
  beforeAll(async () => {
    service = await startAllInOne();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('50 subscribers cut at random during 2,000 writes resume: every version once, in order; pages equal a fresh read', async () => {
    const { connects } = await runResumeChaos({
      nodes: [service.publicUrl],
      admin: adminHttp(service.adminUrl, service.adminToken),
      adminUrl: service.adminUrl,
      adminToken: service.adminToken,
      origin: ORIGIN,
    });
    expect(connects).toBeGreaterThan(100);
  }, 360_000);
});
