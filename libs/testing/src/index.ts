export * from './backends.js';
export * from './freePort.js';
export * from './launchBrowser.js';
export * from './localKafka.js';
export * from './localRedis.js';
export * from './eventually.js';
export * from './nodeChild.js';
export * from './processMemory.js';
