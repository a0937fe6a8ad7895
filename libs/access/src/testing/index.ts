export * from './streamSlotsContract.js';
