export * from './eventStore.js';
export * from './expectedRevision.js';
export * from './eventLogOpenError.js';
export * from './openSqliteDatabase.js';
export * from './sqliteEventStore.js';
export * from './esdb/index.js';
