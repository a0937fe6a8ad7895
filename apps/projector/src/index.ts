export * from './projector.js';
export * from './projections/index.js';
export { changeMessageOf } from './changeMessages.js';
export { decodeEvents, type SkippedEvent } from './decodeEvents.js';
export { projectBatch } from './projectBatch.js';
