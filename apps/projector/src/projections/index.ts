import { apiKeyProjection } from './apiKeyProjection.js';
import { collectionProjection } from './collectionProjection.js';
import { itemProjection } from './itemProjection.js';
import { planProjection } from './planProjection.js';
import type { Projection } from './projection.js';

/**
 * THE registry: every projection the projector applies, `rebuild` rebuilds and `status`
 * reports. Adding a projection = one spec file + one line here (docs/projections.md).
 */
export const PROJECTIONS: readonly Projection[] = [collectionProjection, itemProjection, apiKeyProjection, planProjection];

export * from './projection.js';
export { itemSpec, itemProjection } from './itemProjection.js';
export { collectionSpec, collectionProjection } from './collectionProjection.js';
export { apiKeySpec, apiKeyProjection } from './apiKeyProjection.js';
export { planSpec, planProjection } from './planProjection.js';
