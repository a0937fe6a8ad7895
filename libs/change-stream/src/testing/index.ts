export * from './changeStreamContract.js';
