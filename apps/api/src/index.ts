export * from './apiApp.js';
export type { ApiStores } from './apiStores.js';
export * from './publicAccess.js';
export * from './usageRecorder.js';
export { publicOpenApiDocument } from './routes/publicOpenApiDocument.js';
export { publicContracts, publicRouteContracts } from './routes/publicContract.js';
export { parseCollectionQuery, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, BUILT_IN_SORT_FIELDS } from './routes/collectionQuery.js';
export { parseBatchRequest, MAX_BATCH_IDS } from './routes/batchRequest.js';
export * from './subscribe/index.js';
