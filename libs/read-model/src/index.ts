export * from './readModel.js';
