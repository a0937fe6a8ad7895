export * from './changeStream.js';
