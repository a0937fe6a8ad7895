export * from './eventStore.js';
