/**
 * The event store port. Adapters: SQLite (embedded default), EventStoreDB (distributed).
 * Positions are the store's global order: every event appended later has a greater position.
 */
export interface EventToAppend {
  /** Unique id; appending an id that the stream already holds is a no-op (idempotent retry). */
  readonly eventId?: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata?: Record<string, unknown>;
}

export interface RecordedEvent {
  readonly eventId: string;
  readonly streamName: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: Record<string, unknown>;
  /** 0-based revision of the event within its stream. */
  readonly revision: number;
  /** Global position in the log (> 0). */
  readonly position: number;
  /** When the store recorded it. */
  readonly recordedAt: Date;
}

/**
 * `no_stream`: the stream must not exist; `stream_exists`: it must; a number: its last
 * revision must be exactly that; `any`: no check.
 */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface AppendResult {
  /** Revision of the stream's last event after the append (-1 when the stream is still empty). */
  readonly nextRevision: number;
  /** Position of the last event written, or of the existing event for an idempotent retry. */
  readonly position: number;
}

export interface StreamAppend {
  readonly streamName: string;
  readonly events: readonly EventToAppend[];
  readonly expectedRevision: ExpectedRevision;
}

export type StreamAppendOutcome = { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: Error };

export interface ReadAllOptions {
  /** Return events with a position strictly greater than this (0 = from the start). */
  readonly after?: number;
  /** Stop at (and include) this position. */
  readonly until?: number;
  readonly maxCount?: number;
}

export interface SubscribeOptions {
  /** Deliver events with a position strictly greater than this (0 = the whole log). */
  readonly after: number;
  /** How many events one delivery may carry at most (catch-up reads in batches). */
  readonly batchSize?: number;
}

/**
 * A catch-up subscription: delivers the history after `after`, then live events, in order,
 * each exactly once, in batches. The next batch is not delivered before `handler` resolves.
 * A handler that throws stops the subscription; `done` rejects with that error.
 */
export interface EventSubscription {
  readonly done: Promise<void>;
  close(): Promise<void>;
}

export interface EventStore {
  appendToStream(
    streamName: string,
    events: readonly EventToAppend[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;
  /**
   * Appends to several streams. Each entry is checked and applied on its own (not atomic across
   * streams): one entry's conflict does not stop the others. Adapters that can (SQLite) commit the
   * whole batch in one transaction, which is what makes imports fast.
   */
  appendToStreams(batch: readonly StreamAppend[]): Promise<StreamAppendOutcome[]>;
  /**
   * Appends every entry, in order, or throws the first entry's error. SQLite commits the batch
   * in one transaction: all or nothing. EventStoreDB cannot: it appends entry after entry and
   * stops at the first failure; when earlier entries were written, it throws a PartialAppendError
   * that lists them (so order a batch with what must never be written alone last).
   */
  appendAll(batch: readonly StreamAppend[]): Promise<AppendResult[]>;
  /** The stream's events in order; empty when the stream does not exist. */
  readStream(streamName: string): Promise<RecordedEvent[]>;
  /** Events of all streams in position order. */
  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent>;
  subscribeToAll(options: SubscribeOptions, handler: (events: RecordedEvent[]) => Promise<void>): EventSubscription;
  /** Position of the last event in the log, 0 when it is empty. */
  headPosition(): Promise<number>;
  close(): Promise<void>;
}
