export * from './changeStream.js';
export * from './changeStreamLogger.js';
export * from './inProcessChangeStream.js';
export * from './kafkaChangeStream.js';
