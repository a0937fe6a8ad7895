export * from './eventStore.js';
export * from './businessTime.js';
export * from './partialAppendError.js';
export * from './expectedRevision.js';
export * from './eventLogOpenError.js';
export * from './openSqliteDatabase.js';
export * from './sqliteEventStore.js';
export * from './esdb/index.js';
