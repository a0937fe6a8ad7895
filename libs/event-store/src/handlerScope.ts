import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventSubscription } from './eventStore.js';

/**
 * Marks code running inside a subscription's handler. close() uses it to know it is called from
 * that handler, where waiting for the subscription to finish would wait for itself: a deadlock.
 */
export const handlerScope = new AsyncLocalStorage<EventSubscription>();
