import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RedisClientType } from 'redis';
import { describeWithBackend } from '@pubstream/testing';
import { boundedRedisCall } from './boundedRedisCall.js';
import { connectRedis } from './redisConnection.js';

// A reply that came in time must not lose to our own timer because this process was busy: on a
// starved 2-core machine the event loop can stall past the bound while the reply already waits in
// the socket, and both become due at once. Timers run first in Node's loop, so the timeout used to
// win and a healthy Redis was answered 503 (docs/operations.md, "Timeouts").

/** Blocks the event loop, as a burst of work on a starved machine does. */
const busyFor = (ms: number): void => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
};

describeWithBackend('redis', 'boundedRedisCall on a busy process', (url) => {
  let client: RedisClientType;
  beforeAll(async () => {
    client = (await connectRedis(url, () => {})) as RedisClientType;
  });
  afterAll(async () => {
    await client?.close();
  });

  it('resolves with the reply that arrived while the event loop was blocked past the bound', async () => {
    for (let round = 0; round < 5; round++) {
      const call = boundedRedisCall(client.ping(), 100);
      await new Promise((resolve) => setImmediate(resolve)); // the command is written to the socket
      busyFor(300); // the reply arrives meanwhile; the timer is due too when the loop resumes
      await expect(call).resolves.toBe('PONG');
    }
  });
});
