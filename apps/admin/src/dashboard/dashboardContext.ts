import type { Logger } from '@pubstream/observability';
import type { ReadModel } from '@pubstream/read-model';
import type { AdminService } from '../adminService.js';

/** What the dashboard gets from the admin app that mounts it (its own module: no import cycle). */
export interface DashboardContext {
  readonly service: AdminService;
  readonly readModel: ReadModel;
  readonly adminToken: string;
  readonly logger: Logger;
  readonly now: () => Date;
}
