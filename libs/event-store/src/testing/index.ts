export * from './contractContext.js';
export * from './eventStoreContract.js';
export * from './subscriptionProbe.js';
