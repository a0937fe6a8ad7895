import { expect, it } from 'vitest';
import { createInProcessChangeStream } from './inProcessChangeStream.js';
import { testChangeStreamContract } from './testing/index.js';

testChangeStreamContract('in-process', () => createInProcessChangeStream(), { deliveryTimeoutMs: 1_000 });

it('keeps delivering to the other subscribers when one throws, and logs it', async () => {
  const errors: object[] = [];
  const stream = createInProcessChangeStream({ logger: { warn: () => {}, error: (details) => void errors.push(details) } });
  const received: string[] = [];
  await stream.subscribe({ onMessages: () => { throw new Error('boom'); } });
  await stream.subscribe({ onMessages: (batch) => void received.push(...batch.map((m) => m.kind)) });
  await stream.publish([{ kind: 'plan', action: 'update', version: 1, position: 1 }]);
  expect(received).toEqual(['plan']);
  expect(errors).toHaveLength(1);
});
