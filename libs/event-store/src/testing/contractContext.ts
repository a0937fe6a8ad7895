import { randomUUID } from 'node:crypto';
import type { EventStore, EventToAppend } from '../eventStore.js';

/** Adapter quirks the contract suite accounts for (options, not forks). */
export interface EventStoreContractOptions {
  /** Positions are consecutive integers (SQLite). EventStoreDB positions are byte offsets. */
  readonly contiguousPositions?: boolean;
  /** Each test gets an empty log (SQLite temp file). A shared server holds other tests' events. */
  readonly freshLogPerTest?: boolean;
  /** A retried append reports the position of the original event (EventStoreDB may not). */
  readonly retryReturnsOriginalPosition?: boolean;
  /** appendAll commits all entries or none (SQLite); EventStoreDB appends them one by one. */
  readonly atomicAppendAll?: boolean;
  /** How long to wait for live deliveries (ms). */
  readonly deliveryTimeoutMs?: number;
}

export interface ContractContext {
  readonly options: Required<EventStoreContractOptions>;
  /** The store of the running test. */
  store(): EventStore;
}

/** A stream name no other test uses, starting with one of our prefixes (EventStoreDB filters on them). */
export const uniqueStream = (label = 'contract'): string => `item-${label}-${randomUUID()}`;

export const event = (type: string, data: Record<string, unknown> = {}, extra: Partial<EventToAppend> = {}): EventToAppend => ({
  eventId: randomUUID(),
  type,
  data,
  ...extra,
});
