export type UsageGranularity = 'hour' | 'day' | 'month';

export interface KeyUsage {
  readonly keyId: string;
  readonly requestCount: number;
  readonly lastUsedAt: string | null;
}

export interface UsageCount {
  readonly keyId: string;
  /** When the requests happened (the bucket they count in); also the new last-used time. */
  readonly at: Date;
  readonly count: number;
}

/**
 * Request counts per API key (docs/read-models.md). Not built from events, so it lives outside
 * rebuild generations: a switch never resets it. Written by the API, read by the admin.
 */
export interface UsageStore {
  /**
   * Adds request counts (request count, last used, per-hour, per-day and per-month buckets).
   * The API buffers per-request counts and flushes them in batches, so this is off the hot path.
   */
  recordUsage(counts: readonly UsageCount[]): Promise<void>;
  getUsage(keyIds: readonly string[]): Promise<KeyUsage[]>;
  /** Requests per bucket for a key: `hour` buckets are `YYYY-MM-DDTHH`, `day` are `YYYY-MM-DD`, `month` are `YYYY-MM`. */
  getUsageSeries(keyId: string, granularity: UsageGranularity, from: Date, to: Date): Promise<{ bucket: string; count: number }[]>;
}
