export { AdminApiError, type AdminRequest } from './adminApi.js';
export type { ApiKeyOptions, CollectionOptions, DistributedProfileOptions, SeedItem } from './options.js';
export { PubstreamContainer } from './pubstreamContainer.js';
export { StartedPubstreamContainer } from './startedPubstreamContainer.js';
