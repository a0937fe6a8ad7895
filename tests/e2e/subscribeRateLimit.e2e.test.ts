import { expect, it } from 'vitest';
import { useSubscribeWorlds } from './support/subscribeWorlds.js';

// The subscribe test world runs the API's real access checks, rate limiter included (it once
// stubbed `consumeRate`, so no /subscribe test could see a limit): each connection is one
// metered call that counts against the key's per-window limit (docs/subscriptions.md).
const { world, connect } = useSubscribeWorlds();

it('a connection counts against the key rate limit: over it, 429 with the rate headers and no stream', async () => {
  const w = await world();
  const { apiKey, keyId } = await w.createKey({ rateLimit: 2 });
  await w.putCollection('posts');
  const first = await connect(w.subscribeUrl({ apiKey, collections: 'posts' }));
  expect(first.status).toBe(200);
  expect(first.headers['x-ratelimit-limit']).toBe('2');
  expect(first.headers['x-ratelimit-remaining']).toBe('1');
  const second = await connect(w.subscribeUrl({ apiKey, collections: 'posts' }));
  expect(second.status).toBe(200);
  const refused = await connect(w.subscribeUrl({ apiKey, collections: 'posts' }));
  expect(refused.status).toBe(429);
  expect(refused.headers['x-ratelimit-remaining']).toBe('0');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  const body = JSON.parse(await refused.body()) as { error: string; message: string };
  expect(body.error).toBe('Too Many Requests');
  expect(body.message).toMatch(/^Rate limit exceeded\. Try again in \d+ seconds\.$/);
  // Two connection cycles metered, the refusal not.
  expect(w.usage.get(keyId)).toBe(2);
});
