import { EventStoreDBClient } from '@eventstore/db-client';
import type { EventStore } from '../eventStore.js';
import { createEsdbEventStore, type EsdbEventStoreOptions } from './esdbEventStore.js';

/** An EventStoreDB-backed store from an `esdb://` connection string (the store owns the client). */
export const connectEsdbEventStore = (connectionString: string, options?: EsdbEventStoreOptions): EventStore =>
  createEsdbEventStore(EventStoreDBClient.connectionString(connectionString), options);
