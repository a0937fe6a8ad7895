import type { EventStore } from '@pubstream/event-store';
import type { KeyStore, ProjectionStore, ReadModel, UsageStore } from '@pubstream/read-model';

/** The part of the event store port the admin's writes use: read a stream, append, the log's head (an `EventStore` fits). */
export type AdminEventStore = Pick<EventStore, 'readStream' | 'appendToStream' | 'appendAll' | 'appendToStreams' | 'headPosition'>;

/**
 * The ports the admin uses (a `Stores` record fits): the public reads for collection views,
 * counts and the items of a collection being deleted; keys and their usage for listings and
 * reports; the projector's checkpoint, which read-your-writes polls when no projector runs in
 * this process; the backend's ping for /readyz. It writes only events, never these stores.
 */
export interface AdminStores {
  readonly readModel: ReadModel;
  readonly keys: Pick<KeyStore, 'getKey' | 'listKeys'>;
  readonly usage: Pick<UsageStore, 'getUsage' | 'getUsageSeries'>;
  readonly projections: Pick<ProjectionStore, 'getCheckpoint'>;
  ping(): Promise<void>;
}
