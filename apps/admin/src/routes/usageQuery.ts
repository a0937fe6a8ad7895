import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).transform((value) => new Date(value));
/** The query of GET /admin/usage (docs/admin-api.md, Usage). */
export const usageQuery = z.object({
  granularity: z.enum(['hour', 'day', 'month'], { error: 'granularity must be hour, day or month' }).default('day'),
  from: isoDate.optional(),
  to: isoDate.optional(),
  keyId: z.string().min(1).optional(),
});
