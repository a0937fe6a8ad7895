import { maskApiKey } from '@pubstream/access';
import { ValidationError, type KeyType } from '@pubstream/domain';
import type { KeyStore, UsageStore } from '@pubstream/read-model';

export type UsageGranularity = 'hour' | 'day' | 'month';

export interface UsageQuery {
  readonly granularity: UsageGranularity;
  readonly from: Date;
  readonly to: Date;
  readonly keyId?: string;
}

export interface KeyUsageReport {
  readonly keyId: string;
  readonly name: string;
  readonly type: KeyType;
  readonly maskedKey: string;
  readonly requestCount: number;
  readonly lastUsedAt: string | null;
  /** Requests inside [from, to]. */
  readonly total: number;
  readonly series: readonly { bucket: string; count: number }[];
}

const BUCKET_MS: Record<UsageGranularity, number> = { hour: 3_600_000, day: 86_400_000, month: 31 * 86_400_000 };
const MAX_BUCKETS = 1_000;

/** Default window for each granularity: last 24 hours, 30 days, 12 months. */
export const defaultUsageFrom = (granularity: UsageGranularity, to: Date): Date =>
  new Date(to.getTime() - (granularity === 'hour' ? 24 : granularity === 'day' ? 30 : 365) * BUCKET_MS[granularity === 'month' ? 'day' : granularity]);

export const checkUsageRange = (query: UsageQuery): void => {
  if (query.from.getTime() > query.to.getTime()) throw new ValidationError('from must not be after to');
  if ((query.to.getTime() - query.from.getTime()) / BUCKET_MS[query.granularity] > MAX_BUCKETS) {
    throw new ValidationError(`The range spans more than ${MAX_BUCKETS} ${query.granularity} buckets; choose a coarser granularity or a shorter range`);
  }
};

/** What a usage report reads: the keys, and their counts. */
export interface UsageReportStores {
  readonly keys: Pick<KeyStore, 'listKeys'>;
  readonly usage: Pick<UsageStore, 'getUsage' | 'getUsageSeries'>;
}

/** Per key: lifetime totals, and requests per bucket in the range (live keys bill, test keys do not). */
export const usageReport = async (stores: UsageReportStores, query: UsageQuery) => {
  checkUsageRange(query);
  const keys = (await stores.keys.listKeys()).filter((key) => query.keyId === undefined || key.keyId === query.keyId);
  const usage = new Map((keys.length === 0 ? [] : await stores.usage.getUsage(keys.map((key) => key.keyId))).map((entry) => [entry.keyId, entry]));
  const reports: KeyUsageReport[] = await Promise.all(
    keys.map(async (key) => {
      const series = await stores.usage.getUsageSeries(key.keyId, query.granularity, query.from, query.to);
      return {
        keyId: key.keyId,
        name: key.name,
        type: key.type,
        maskedKey: maskApiKey(key.type, key.last4),
        requestCount: usage.get(key.keyId)?.requestCount ?? 0,
        lastUsedAt: usage.get(key.keyId)?.lastUsedAt ?? null,
        total: series.reduce((sum, point) => sum + point.count, 0),
        series,
      };
    }),
  );
  return {
    granularity: query.granularity,
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    totals: {
      live: reports.filter((report) => report.type === 'live').reduce((sum, report) => sum + report.total, 0),
      test: reports.filter((report) => report.type === 'test').reduce((sum, report) => sum + report.total, 0),
    },
    keys: reports,
  };
};
