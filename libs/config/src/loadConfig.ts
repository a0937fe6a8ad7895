import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { adminUrlOf, checkAdminSettings, checkHttpTimeouts } from './adminSettings.js';
import { checkRedisUrl, parseKafkaBrokers } from './backendSettings.js';
import type { Config, ProcessRole } from './config.js';
import { ConfigError } from './configError.js';
import { type Env, envSchema } from './envSchema.js';
import { parseEventStoreUrl, type EventStoreLocation } from './eventStoreUrl.js';
import { checkProfile } from './profileCheck.js';

export type { Config, ProcessRole } from './config.js';
export { ConfigError } from './configError.js';

type EnvInput = Readonly<Record<string, string | undefined>>;

/**
 * Parses and checks the environment for one process role. Returns a frozen object, or throws a
 * ConfigError whose message is one line naming the bad variable.
 */
export const loadConfig = (env: EnvInput, role: ProcessRole, cwd: string = process.cwd()): Config => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw first ? describeIssue(first, env) : new ConfigError('environment', 'Invalid configuration');
  }
  const values = parsed.data;
  const eventStore = parseEventStoreUrl(values.EVENT_STORE_URL, values.DATA_DIR, cwd);
  if (eventStore === null) {
    throw new ConfigError(
      'EVENT_STORE_URL',
      `Invalid configuration: EVENT_STORE_URL must be sqlite:<path> or an esdb:// connection string (got "${values.EVENT_STORE_URL ?? ''}")`,
    );
  }
  const redisUrl = checkRedisUrl(values.REDIS_URL);
  const kafkaBrokers = parseKafkaBrokers(values.KAFKA_BROKERS);
  checkProfile(role, redisUrl, kafkaBrokers);
  const adminAllowedHosts = checkAdminSettings(values, role);
  checkHttpTimeouts(values);
  return toConfig(values, role, { dataDir: resolve(cwd, values.DATA_DIR), eventStore, redisUrl, kafkaBrokers, adminAllowedHosts });
};

const describeIssue = (issue: z.core.$ZodIssue, env: EnvInput): ConfigError => {
  const variable = String(issue.path[0] ?? 'environment');
  const raw = env[variable];
  const shown = variable === 'ADMIN_TOKEN' || raw === undefined ? '' : ` (got "${raw}")`;
  return new ConfigError(variable, `Invalid configuration: ${variable} ${issue.message}${shown}`);
};

/** What loadConfig derived from several variables or from the working directory. */
interface Derived {
  dataDir: string;
  eventStore: EventStoreLocation;
  redisUrl: string | null;
  kafkaBrokers: readonly string[] | null;
  adminAllowedHosts: readonly string[];
}

const toConfig = (values: Env, role: ProcessRole, derived: Derived): Config =>
  Object.freeze({
    role,
    nodeEnv: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    adminPort: values.ADMIN_PORT,
    projectorPort: values.PROJECTOR_PORT,
    adminHost: values.ADMIN_HOST,
    adminToken: values.ADMIN_TOKEN ?? null,
    adminAllowedHosts: Object.freeze([...derived.adminAllowedHosts]),
    adminAuthMaxFailures: values.ADMIN_AUTH_MAX_FAILURES,
    adminAuthBlockMs: values.ADMIN_AUTH_BLOCK_MS,
    adminAuthMaxBlockMs: values.ADMIN_AUTH_MAX_BLOCK_MS,
    adminUrl: adminUrlOf(values),
    dataDir: derived.dataDir,
    eventStore: Object.freeze(derived.eventStore),
    redisUrl: derived.redisUrl,
    kafkaBrokers: derived.kafkaBrokers === null ? null : Object.freeze([...derived.kafkaBrokers]),
    kafkaTopic: values.KAFKA_TOPIC,
    streamTtlMs: values.STREAM_TTL_MS,
    rateLimitWindow: values.RATE_LIMIT_WINDOW,
    rateLimitWindowSeconds: values.RATE_LIMIT_WINDOW === 'hour' ? 3600 : 60,
    acceptTestKeys: values.ACCEPT_TEST_KEYS,
    requireBrowserOrigin: values.REQUIRE_BROWSER_ORIGIN,
    accessLog: values.ACCESS_LOG,
    logLevel: values.LOG_LEVEL,
    readYourWritesTimeoutMs: values.READ_YOUR_WRITES_TIMEOUT_MS,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    redisCommandTimeoutMs: values.REDIS_COMMAND_TIMEOUT_MS,
    httpHeadersTimeoutMs: values.HTTP_HEADERS_TIMEOUT_MS,
    httpRequestTimeoutMs: values.HTTP_REQUEST_TIMEOUT_MS,
    adminRequestTimeoutMs: values.ADMIN_REQUEST_TIMEOUT_MS,
    httpKeepAliveTimeoutMs: values.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerAddress: values.MAX_CONNECTIONS_PER_ADDRESS,
    shutdownReconnectWindowMs: values.SHUTDOWN_RECONNECT_WINDOW_MS,
    maxStreamsPerAddress: values.MAX_STREAMS_PER_ADDRESS,
    maxStreamsPerKey: values.MAX_STREAMS_PER_KEY === 0 ? null : values.MAX_STREAMS_PER_KEY,
    streamBufferBudgetBytes: values.STREAM_BUFFER_BUDGET_MB * 1024 * 1024,
    cacheMaxAgeSeconds: values.CACHE_MAX_AGE_SECONDS,
    cacheStaleWhileRevalidateSeconds: values.CACHE_STALE_WHILE_REVALIDATE_SECONDS,
    compressionMinBytes: values.COMPRESSION_MIN_BYTES,
    resumeWindowMs: values.RESUME_WINDOW,
    minPositionWaitMs: values.MIN_POSITION_WAIT_MS,
    apiWorkers: values.API_WORKERS ?? Math.max(1, availableParallelism()),
  });
