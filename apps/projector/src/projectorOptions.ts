import type { ChangeStream } from '@pubstream/change-stream';
import type { EventStore } from '@pubstream/event-store';
import type { BackoffOptions } from './backoff.js';
import type { PublisherState } from './changePublisher.js';
import type { ProjectorLogger } from './projectorLogger.js';
import type { ProjectorStores } from './projectorStores.js';
import type { Projection } from './projections/projection.js';

export interface ProjectorLeaseOptions {
  /** Who we are (host:pid:…, unique per process): shown to operators and compared by fencing. */
  readonly holder: string;
  readonly ttlMs: number;
  /** How often a standby tries to take the lease; ttlMs / 10 (50–250 ms) by default. */
  readonly pollMs?: number;
}

export interface ProjectorDeps {
  readonly eventStore: EventStore;
  /** Where it writes (projection store) and the reads its projections load, of one generation. */
  readonly stores: ProjectorStores;
  readonly changeStream: ChangeStream;
  readonly logger?: ProjectorLogger;
  readonly now?: () => Date;
  /** Events per applied batch (one read-model apply per batch), and per published batch at most. Default 500. */
  readonly batchSize?: number;
  /** JSON bytes of change messages per publish at most. Default 512 KiB. */
  readonly publishMaxBytes?: number;
  /** The applied checkpoint's name; the published one is `${name}:published`. Default `projector`. */
  readonly name?: string;
  /** Distributed profile: only the holder of the read model's `projector` lease writes. */
  readonly lease?: ProjectorLeaseOptions;
  /** Default: the registry in projections/index.ts. */
  readonly projections?: readonly Projection[];
  /** RESUME_WINDOW: how long the change history keeps every change (docs/read-models.md). Default 24 h. */
  readonly resumeWindowMs?: number;
  /** Backoff after a read-model or event-store error (jittered). Default 200 ms doubling to 2 s. */
  readonly retry?: Partial<BackoffOptions>;
  /** Backoff after a failed publish (jittered). Default 100 ms doubling to 2 s. */
  readonly publishRetry?: Partial<BackoffOptions>;
}

export type ProjectorState = 'stopped' | 'waiting-for-lease' | 'starting' | 'running' | 'retrying';

export interface ProjectorStatus {
  readonly name: string;
  readonly state: ProjectorState;
  /** Position of the last event whose effects are in the read model. */
  readonly applied: number;
  /** Position up to which every change message has been published. */
  readonly published: number;
  /** Position of the last event in the log. */
  readonly head: number;
  /** Events in the log after `applied`. */
  readonly lagEvents: number;
  /** Age of the oldest event not yet applied, in seconds (0 when caught up). */
  readonly lagSeconds: number;
  /** Events applied per second over the last few seconds. */
  readonly eventsPerSecond: number;
}

/** What the projector knows without any I/O: for /metrics and /readyz (docs/projections.md). */
export interface ProjectorSnapshot {
  readonly name: string;
  readonly state: ProjectorState;
  /** Holds the lease (or needs none) and applies: exactly one projector is active. */
  readonly active: boolean;
  /** Known while active; a standby's figures are the last it knew. */
  readonly applied: number;
  readonly published: number;
  readonly publisher: PublisherState;
  readonly eventsApplied: number;
  readonly messagesPublished: number;
}

export interface Projector {
  /** Starts projecting in the background (after taking the lease when one is configured). */
  start(): void;
  /** Stops after the current batch, releases the lease at once, resolves when idle. */
  stop(): Promise<void>;
  status(): Promise<ProjectorStatus>;
  snapshot(): ProjectorSnapshot;
  /**
   * Resolves true once the applied checkpoint reaches `position` (read-your-writes for the admin
   * API), false when `timeoutMs` passes first.
   */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
}
