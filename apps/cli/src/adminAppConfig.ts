import type { AdminAppConfig } from '@pubstream/admin';
import type { Config } from '@pubstream/config';

/** The admin app's settings from the process configuration (all-in-one and `pubstream admin` alike). */
export const adminAppConfigOf = (config: Config, adminToken: string): AdminAppConfig => ({
  adminToken,
  readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
  allowedHosts: config.adminAllowedHosts,
  authThrottle: { maxFailures: config.adminAuthMaxFailures, blockMs: config.adminAuthBlockMs, maxBlockMs: config.adminAuthMaxBlockMs },
});
