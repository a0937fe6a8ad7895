export * from './connectEsdbEventStore.js';
export * from './esdbEventStore.js';
