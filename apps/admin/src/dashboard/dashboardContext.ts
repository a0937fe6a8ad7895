import type { Logger } from '@pubstream/observability';
import type { ReadModel } from '@pubstream/read-model';
import type { AdminService } from '../adminService.js';
import type { AuthThrottle } from '../authThrottle.js';

/** What the dashboard gets from the admin app that mounts it (its own module: no import cycle). */
export interface DashboardContext {
  readonly service: AdminService;
  readonly readModel: ReadModel;
  readonly adminToken: string;
  readonly logger: Logger;
  readonly now: () => Date;
  /** Failed sign-ins count toward the same per-address block as wrong API tokens. */
  readonly throttle: AuthThrottle;
}
