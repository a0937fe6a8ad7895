export { createClient, subscriptionLimits } from './createClient.js';
export type { ClientOptions, PubstreamClient, Unsubscribe } from './createClient.js';
export {
  BadRequestError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PositionExpiredError,
  PubstreamError,
  RateLimitedError,
  ServerError,
  ServiceUnavailableError,
  UnauthorizedError,
} from './errors.js';
export { defaultRetryPolicy, fullJitterDelay, isRetryable, nextRetryDelay } from './retryPolicy.js';
export type { RetryPolicy } from './retryPolicy.js';
export type { RetryListener } from './runWithRetry.js';
export type { Clock } from './clock.js';
export type { FetchLike } from './httpTransport.js';
export type { EventSourceConstructor, EventSourceLike } from './eventSourceResolver.js';
export type { StreamTuning } from './streamTuning.js';
export type { WatchedItem } from './localCopy.js';
export { maxBatchSize } from './batching.js';
export type * from './types.js';
