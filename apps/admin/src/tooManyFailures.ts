import { RateLimitedError } from '@pubstream/domain';

/** The 429 of a blocked address (docs/security.md); the error middleware sends its Retry-After. */
export const tooManyFailures = (retryAfterSeconds: number): RateLimitedError =>
  new RateLimitedError(`Too many failed admin authentications from this address; try again in ${retryAfterSeconds} seconds`, retryAfterSeconds, 'admin_auth');
