import type { Logger } from '@pubstream/observability';
import type { AdminService } from '../adminService.js';
import type { AuthThrottle } from '../authThrottle.js';
import type { UsageReportStores } from '../usageReport.js';

/** The use cases the dashboard's pages call. */
export type DashboardService = Pick<AdminService, 'listKeys' | 'getKey' | 'getPlan' | 'createKey' | 'updateKey' | 'deleteKey' | 'setPlan' | 'listCollections'>;

/** What the dashboard gets from the admin app that mounts it (its own module: no import cycle). */
export interface DashboardContext {
  readonly service: DashboardService;
  /** The keys and their counts, for the usage charts. */
  readonly stores: UsageReportStores;
  readonly adminToken: string;
  readonly logger: Pick<Logger, 'warn' | 'error'>;
  readonly now: () => Date;
  /** Failed sign-ins count toward the same per-address block as wrong API tokens. */
  readonly throttle: AuthThrottle;
}
