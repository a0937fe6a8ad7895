// The ports (docs/read-models.md): who uses which is in docs/architecture.md.
export type { CollectionRecord, ItemRecord, KeyRecord, PlanRecord } from './records.js';
export { APPLIED_CHECKPOINT, checkPageQuery, type PageQuery, type PageResult, type ReadModel, type SortOrder } from './readModel.js';
export { FencedError, type ApplyOptions, type Checkpoint, type Lease, type ProjectionStore, type ReadModelOp } from './projectionStore.js';
export {
  EXPIRED,
  historyIndexStepMs,
  historyTtlMs,
  type ChangeEntry,
  type ChangeHistory,
  type CollectionChanges,
  type Expired,
  type HistoryRecording,
} from './changeHistory.js';
export { isPosition, parsePosition } from './position.js';
export { withPosition } from './withPosition.js';
export type { KeyStore } from './keyStore.js';
export type { KeyUsage, UsageCount, UsageGranularity, UsageStore } from './usageStore.js';
export type { Stores } from './stores.js';
export { usageBucketOf, usageBucketsBetween } from './usageBuckets.js';
export { createMissConfirmation, NOT_CAUGHT_UP_MESSAGE, type MissConfirmation } from './missConfirmation.js';
export { caughtUpKeyReads, caughtUpReadModel } from './caughtUpReads.js';

// Adapters.
export { createMemoryStores, type MemoryStoresOptions } from './memory/memoryStores.js';
export { createRedisStores, type RedisStoresOptions } from './redis/redisStores.js';
export { connectRedis, createRedisClientOptions, type RedisReadModelClient } from './redis/redisConnection.js';
export { RedisTimeoutError, withRedisTimeout } from './redis/boundedRedisCall.js';
export { createGenerationalRedisStores, type GenerationalStores, type GenerationalStoresOptions } from './redis/generationalStores.js';
export { dropGeneration, listGenerations, readActiveGeneration, readPendingGeneration, setPendingGeneration, switchGeneration } from './redis/generations.js';
export { generationPointerKey, newGenerationNamespace, pendingGenerationKey } from './redis/redisKeys.js';
