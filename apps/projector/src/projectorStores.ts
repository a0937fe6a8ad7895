import type { ProjectionStore } from '@pubstream/read-model';
import type { ProjectionReads } from './projections/projection.js';

/**
 * The ports the projector uses, all of one adapter and one generation: the projection store it
 * writes to, and the reads its projections load current records with. A `Stores` record fits.
 */
export interface ProjectorStores extends ProjectionReads {
  readonly projections: ProjectionStore;
}
