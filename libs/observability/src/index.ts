export * from './logger.js';
export * from './metrics.js';
export * from './redaction.js';
export * from './backendErrors.js';
