/** The read model's lease that only the active projector holds (docs/projections.md). */
export const PROJECTOR_LEASE = 'projector';

/** The publisher's cursor, kept beside the applied checkpoint `name` (docs/projections.md). */
export const publishedCheckpointName = (name: string): string => `${name}:published`;
