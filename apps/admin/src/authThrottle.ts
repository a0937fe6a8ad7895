import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface AuthThrottleOptions {
  /** Failed authentications allowed per address per minute; the next one blocks it (ADMIN_AUTH_MAX_FAILURES). */
  readonly maxFailures: number;
  /** The first block (ADMIN_AUTH_BLOCK_MS); each further block doubles it, up to `maxBlockMs`. */
  readonly blockMs: number;
  readonly maxBlockMs: number;
}

export interface AuthThrottle {
  /** Whole seconds until `address` may try again; 0 when it is not blocked. */
  blockedFor(address: string): Promise<number>;
  /** Counts one failed authentication of `address`; the seconds of the block it started, else 0. */
  recordFailure(address: string): Promise<number>;
}

/** The defaults of ADMIN_AUTH_MAX_FAILURES, ADMIN_AUTH_BLOCK_MS and ADMIN_AUTH_MAX_BLOCK_MS (libs/config). */
export const DEFAULT_AUTH_THROTTLE: AuthThrottleOptions = { maxFailures: 5, blockMs: 60_000, maxBlockMs: 3_600_000 };

/** How long an address's earlier blocks count toward the doubling: a day without a new block forgets them. */
const BLOCK_MEMORY_SECONDS = 24 * 3600;

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * Throttles guessing of the admin token, per client address (docs/security.md): `maxFailures`
 * wrong or missing tokens and failed dashboard sign-ins a minute, then a block of `blockMs`, which
 * doubles with each repeated block up to `maxBlockMs`. A success does not lift a block. Counters
 * live in this process (rate-limiter-flexible's memory store, on the real clock).
 */
export const createAuthThrottle = (options: AuthThrottleOptions): AuthThrottle => {
  const failures = new RateLimiterMemory({ keyPrefix: 'admin-auth-failures', points: options.maxFailures, duration: 60 });
  const blocks = new RateLimiterMemory({ keyPrefix: 'admin-auth-blocks', points: Number.MAX_SAFE_INTEGER, duration: BLOCK_MEMORY_SECONDS });

  const startBlock = async (address: string): Promise<number> => {
    const count = ((await blocks.get(address))?.consumedPoints ?? 0) + 1;
    await blocks.set(address, count, BLOCK_MEMORY_SECONDS);
    const blockMs = Math.min(options.blockMs * 2 ** Math.min(count - 1, 30), options.maxBlockMs);
    await failures.block(address, blockMs / 1000);
    return seconds(blockMs);
  };

  return {
    async blockedFor(address) {
      const state = await failures.get(address);
      return state !== null && state.consumedPoints > options.maxFailures && state.msBeforeNext > 0 ? seconds(state.msBeforeNext) : 0;
    },
    async recordFailure(address) {
      try {
        await failures.consume(address);
        return 0;
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        // Only the first failure over the limit starts a block: concurrent ones do not count twice.
        return error.consumedPoints === options.maxFailures + 1 ? startBlock(address) : seconds(error.msBeforeNext);
      }
    },
  };
};
