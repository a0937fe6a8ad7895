export * from './collectionPage.js';
export * from './fanoutHub.js';
export * from './sseConnection.js';
export * from './sseFrames.js';
export * from './streamSubscription.js';
export * from './subscribeQuery.js';
export * from './subscribeRoute.js';
export * from './hubMetrics.js';
