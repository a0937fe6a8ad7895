import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type RedisClientType } from 'redis';
import { describeWithBackend } from '@pubstream/testing';
import { withRedisTimeout } from './redisCallTimeout.js';

// A reply that came in time must not lose to our own timer because this process was busy past the
// bound (a starved machine): timers run before I/O in Node's loop, so the timeout used to win and a
// healthy Redis looked frozen (rate limits fell back, stream slots answered 503).

const busyFor = (ms: number): void => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin, as a burst of work on a starved machine does
  }
};

describeWithBackend('redis', 'withRedisTimeout on a busy process', (url) => {
  let client: RedisClientType;
  beforeAll(async () => {
    client = createClient({ url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('resolves with the reply that arrived while the event loop was blocked past the bound', async () => {
    for (let round = 0; round < 5; round++) {
      const call = withRedisTimeout(client.ping(), 100);
      await new Promise((resolve) => setImmediate(resolve)); // the command is written to the socket
      busyFor(300); // the reply arrives meanwhile; the timer is due too when the loop resumes
      await expect(call).resolves.toBe('PONG');
    }
  });
});
