import { EventStoreDBClient } from '@eventstore/db-client';
import { describeWithBackend } from '@pubstream/testing';
import { testEventStoreContract } from '../testing/eventStoreContract.js';
import { createEsdbEventStore } from './esdbEventStore.js';

// Runs where ESDB_CONNECTION_STRING is set or a container engine can start EventStoreDB;
// elsewhere it prints one skip line. Tests use fresh stream names, so a shared server is fine.
describeWithBackend('esdb', 'EventStoreDB event store', (url) => {
  testEventStoreContract(
    'esdb',
    async () => {
      const store = createEsdbEventStore(EventStoreDBClient.connectionString(url), { retry: { initialDelayMs: 50, maxDelayMs: 1_000 } });
      return { store, cleanup: () => store.close() };
    },
    {
      // Positions are byte offsets in the server's transaction log, and the log is shared.
      contiguousPositions: false,
      freshLogPerTest: false,
      // A deduplicated write reports the log's current position, not necessarily the original one.
      retryReturnsOriginalPosition: false,
      deliveryTimeoutMs: 20_000,
    },
  );
});
