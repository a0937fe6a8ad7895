import { afterEach, beforeEach, describe } from 'vitest';
import type { EventStore } from '../eventStore.js';
import { describeAppendAllContract } from './appendAllContract.js';
import { describeAppendContract } from './appendContract.js';
import { describeAppendToStreamsContract } from './appendToStreamsContract.js';
import type { ContractContext, EventStoreContractOptions } from './contractContext.js';
import { describeReadAllContract } from './readAllContract.js';
import { describeSubscriptionContract } from './subscriptionContract.js';

export interface EventStoreUnderTest {
  readonly store: EventStore;
  cleanup(): Promise<void>;
}

/**
 * The one contract every event store adapter must pass. `factory` is called before each test and
 * `cleanup` after it; tests use fresh stream names, so a shared server works too. Adapter quirks
 * are `options`, never a fork of the suite.
 */
export const testEventStoreContract = (
  name: string,
  factory: () => Promise<EventStoreUnderTest>,
  options: EventStoreContractOptions = {},
): void => {
  describe(`event store contract: ${name}`, () => {
    let current: EventStoreUnderTest | undefined;
    beforeEach(async () => {
      current = await factory();
    });
    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });
    const context: ContractContext = {
      options: {
        contiguousPositions: options.contiguousPositions ?? false,
        freshLogPerTest: options.freshLogPerTest ?? false,
        retryReturnsOriginalPosition: options.retryReturnsOriginalPosition ?? true,
        atomicAppendAll: options.atomicAppendAll ?? false,
        deliveryTimeoutMs: options.deliveryTimeoutMs ?? 10_000,
      },
      store() {
        if (!current) throw new Error('The event store factory has not run for this test');
        return current.store;
      },
    };
    describeAppendContract(context);
    describeAppendToStreamsContract(context);
    describeAppendAllContract(context);
    describeReadAllContract(context);
    describeSubscriptionContract(context);
  });
};
