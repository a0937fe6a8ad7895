import type { EventStoreLocation } from './eventStoreUrl.js';

/**
 * Which process is reading its configuration: the all-in-one service (`pubstream start`), one of
 * the distributed profile's processes, or a one-shot CLI tool that talks to a running admin API.
 */
export type ProcessRole = 'all-in-one' | 'api' | 'projector' | 'admin' | 'tool';

export interface Config {
  readonly role: ProcessRole;
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  readonly adminPort: number;
  /** PROJECTOR_PORT: the projector process's health and metrics listener, on `adminHost`. */
  readonly projectorPort: number;
  readonly adminHost: string;
  /** null: not configured (the CLI generates one in development). */
  readonly adminToken: string | null;
  /** Host header names the admin port answers, in `hostName` form; `['*']`: any (docs/security.md). */
  readonly adminAllowedHosts: readonly string[];
  /** Failed admin authentications allowed per client address per minute before it is blocked. */
  readonly adminAuthMaxFailures: number;
  /** First block of a guessing address; doubles with each repeated block up to `adminAuthMaxBlockMs`. */
  readonly adminAuthBlockMs: number;
  readonly adminAuthMaxBlockMs: number;
  /** Base URL of the admin API for CLI tools. */
  readonly adminUrl: string;
  /** Absolute path. */
  readonly dataDir: string;
  readonly eventStore: EventStoreLocation;
  /** null: in-memory read models and rate limits (all-in-one only). */
  readonly redisUrl: string | null;
  /** null: in-process change stream (all-in-one only). */
  readonly kafkaBrokers: readonly string[] | null;
  readonly kafkaTopic: string;
  readonly streamTtlMs: number;
  readonly rateLimitWindow: 'minute' | 'hour';
  readonly rateLimitWindowSeconds: number;
  readonly acceptTestKeys: boolean;
  readonly requireBrowserOrigin: boolean;
  /** ACCESS_LOG: one `info` line per request on both ports (method, path, status, ms, requestId). */
  readonly accessLog: boolean;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly readYourWritesTimeoutMs: number;
  /** SHUTDOWN_TIMEOUT_MS: from the signal to the exit of a stopping process, at most. */
  readonly shutdownTimeoutMs: number;
  /** REDIS_COMMAND_TIMEOUT_MS: a read-model command of the API or the admin gets no answer within this, 503. */
  readonly redisCommandTimeoutMs: number;
  /** HTTP_HEADERS_TIMEOUT_MS: the header block of a request must arrive within this (both ports). */
  readonly httpHeadersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: a whole request on the public port (headers and body). */
  readonly httpRequestTimeoutMs: number;
  /** ADMIN_REQUEST_TIMEOUT_MS: a whole request on the admin port, where imports stream large files. */
  readonly adminRequestTimeoutMs: number;
  readonly httpKeepAliveTimeoutMs: number;
  /** MAX_CONNECTIONS_PER_ADDRESS: concurrent connections per client address and port; 0 = no cap. */
  readonly maxConnectionsPerAddress: number;
  /** Streams of a draining API node reconnect spread over this window (0: at once). */
  readonly shutdownReconnectWindowMs: number;
  /** Concurrent /subscribe streams per client address (IPv6: per /64) on one API node; 0 = no cap. */
  readonly maxStreamsPerAddress: number;
  /** MAX_STREAMS_PER_KEY: concurrent streams per key across every API node, below the plan's cap; null = the plan's. */
  readonly maxStreamsPerKey: number | null;
  /** Unsent bytes all streams of one API node may hold together before the largest are cut. */
  readonly streamBufferBudgetBytes: number;
  /** CACHE_MAX_AGE_SECONDS and CACHE_STALE_WHILE_REVALIDATE_SECONDS: the Cache-Control of public reads. */
  readonly cacheMaxAgeSeconds: number;
  readonly cacheStaleWhileRevalidateSeconds: number;
  /** COMPRESSION_MIN_BYTES: public JSON answers at least this long are compressed. */
  readonly compressionMinBytes: number;
  /** RESUME_WINDOW in ms: how long the change history keeps every change (docs/read-models.md). */
  readonly resumeWindowMs: number;
  /** MIN_POSITION_WAIT_MS: the bound of a ?minPosition= wait (and of a resume ahead of the node). */
  readonly minPositionWaitMs: number;
  /** API_WORKERS: public API processes sharing PORT in `start` and `api` (default: the number of cores); 1 = one process. */
  readonly apiWorkers: number;
}
