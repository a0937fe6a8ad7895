export * from './envSchema.js';
export * from './eventStoreUrl.js';
export * from './loadConfig.js';
