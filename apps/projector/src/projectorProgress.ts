import type { PublisherState } from './changePublisher.js';
import { createPositionWatch, type PositionWatch } from './positionWatch.js';
import type { ProjectorState } from './projectorOptions.js';
import { createRateMeter, type RateMeter } from './rateMeter.js';
import { createRecentBatches, type RecentBatches } from './recentBatches.js';

/** One projector instance's moving parts, shared by its lease loop, applier and publisher. */
export interface ProjectorProgress {
  state: ProjectorState;
  /** Whether it holds the lease (always true without one) for the current active period. */
  holding: boolean;
  publisher: PublisherState;
  readonly applied: PositionWatch;
  published: number;
  eventsApplied: number;
  messagesPublished: number;
  readonly rate: RateMeter;
  /** The applier's last batches, for a publisher that keeps up. */
  readonly recent: RecentBatches;
}

export const createProjectorProgress = (now: () => Date): ProjectorProgress => ({
  state: 'stopped',
  holding: false,
  publisher: 'idle',
  applied: createPositionWatch(),
  published: 0,
  eventsApplied: 0,
  messagesPublished: 0,
  rate: createRateMeter(now),
  recent: createRecentBatches(),
});
