import type { PositionedOp, ProjectedEvent, Projection, ProjectionReads } from './projections/projection.js';

/**
 * Runs every projection over one batch: each loads the records the batch touches (in parallel,
 * one batched read per projection), folds in memory, and the ops come back in log order.
 */
export const projectBatch = async (
  projections: readonly Projection[],
  reads: ProjectionReads,
  events: readonly ProjectedEvent[],
): Promise<PositionedOp[]> => {
  const perProjection = await Promise.all(projections.map((p) => p.project(reads, events)));
  // Stable sort: ops of one event keep the registry order.
  return perProjection.flat().sort((a, b) => a.position - b.position);
};
