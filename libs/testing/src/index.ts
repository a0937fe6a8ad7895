export * from './backends.js';
export * from './containerSupport.js';
export * from './freePort.js';
export * from './launchBrowser.js';
export * from './localKafka.js';
export * from './localRedis.js';
