/** One item to create before start() resolves, as the admin API's import takes it. */
export interface SeedItem {
  dataId: string;
  data: Record<string, unknown>;
}

export interface CollectionOptions {
  /** Display name; default: the slug. */
  name?: string;
  /** Data fields a public page may sort by (docs/admin-api.md). */
  sortableFields?: { name: string; type: 'string' | 'number' }[];
}

export interface ApiKeyOptions {
  /** `test` (default) or `live`. */
  type?: 'test' | 'live';
  name?: string;
  /** Host names or `*.wildcards` the key may be used from in a browser. */
  allowedDomains?: string[];
  /** Requests per window; default: the plan's default. */
  rateLimit?: number;
}

export interface DistributedProfileOptions {
  /** Default: `pubstream-redis:local` (infra/images/build.sh); any Redis image works. */
  redisImage?: string;
  /** Default: `pubstream-kafka:local`; an image configured by KAFKA_* variables (ours or apache/kafka). */
  kafkaImage?: string;
}

export interface CollectionSeed extends CollectionOptions {
  slug: string;
  items: SeedItem[];
}
