import { ValidationError } from '@pubstream/domain';

import type { UsageGranularity } from './usageStore.js';

const LENGTH: Record<UsageGranularity, number> = { hour: 13, day: 10, month: 7 };

/** Refuses series longer than this, so a typo in a date cannot make a read loop for minutes. */
export const MAX_USAGE_BUCKETS = 10_000;

/** `YYYY-MM-DDTHH`, `YYYY-MM-DD` or `YYYY-MM` in UTC. */
export const usageBucketOf = (at: Date, granularity: UsageGranularity): string => at.toISOString().slice(0, LENGTH[granularity]);

/** Every bucket from the one holding `from` to the one holding `to`, inclusive, oldest first. */
export const usageBucketsBetween = (from: Date, to: Date, granularity: UsageGranularity): string[] => {
  const out: string[] = [];
  const cursor = new Date(from.getTime());
  cursor.setUTCMinutes(0, 0, 0);
  if (granularity !== 'hour') cursor.setUTCHours(0);
  if (granularity === 'month') cursor.setUTCDate(1);
  const last = usageBucketOf(to, granularity);
  // ISO prefixes of one length compare as strings in time order.
  for (let bucket = usageBucketOf(cursor, granularity); bucket <= last; bucket = usageBucketOf(cursor, granularity)) {
    out.push(bucket);
    if (out.length > MAX_USAGE_BUCKETS) throw new ValidationError(`A usage series holds at most ${MAX_USAGE_BUCKETS} buckets`);
    if (granularity === 'hour') cursor.setUTCHours(cursor.getUTCHours() + 1);
    else if (granularity === 'day') cursor.setUTCDate(cursor.getUTCDate() + 1);
    else cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return out;
};
