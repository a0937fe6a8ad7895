export * from './readModel.js';
export { createMemoryReadModel, type MemoryReadModelOptions } from './memoryReadModel.js';
export { BUILT_IN_SORTS, compareSortEntries, sortKeyOf, sortKindOf, toCodePointOrder, type SortKey, type SortKind } from './sortKeys.js';
export { usageBucketOf, usageBucketsBetween, type UsageGranularity } from './usageBuckets.js';
export { createRedisReadModel, type RedisReadModelClient, type RedisReadModelOptions } from './redisReadModel.js';
export { connectRedis, createRedisClientOptions } from './redisConnection.js';
export { createGenerationalRedisReadModel, switchGeneration, readActiveGeneration, listGenerations, dropGeneration, setPendingGeneration, readPendingGeneration, generationPointerKey, pendingGenerationKey, type GenerationalReadModel, type GenerationalReadModelOptions } from './generationalReadModel.js';
