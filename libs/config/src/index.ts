export * from './allowedHosts.js';
export * from './envSchema.js';
export * from './eventStoreUrl.js';
export * from './hostName.js';
export * from './loadConfig.js';
