import { resolve } from 'node:path';
import type { z } from 'zod';
import { parseAllowedHosts } from './allowedHosts.js';
import { envSchema } from './envSchema.js';
import { parseEventStoreUrl, type EventStoreLocation } from './eventStoreUrl.js';

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
  readonly adminHost: string;
  /** PROJECTOR_PORT: the projector process's health and metrics listener, on `adminHost`. */
  readonly projectorPort: number;
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
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly readYourWritesTimeoutMs: number;
  readonly shutdownTimeoutMs: number;
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
}

/** A configuration that cannot work. The message is one line naming the variable. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(message);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

const BROKER_PATTERN = /^[A-Za-z0-9.-]+:\d{1,5}$/;

const describeIssue = (issue: z.core.$ZodIssue, env: Readonly<Record<string, string | undefined>>): ConfigError => {
  const variable = String(issue.path[0] ?? 'environment');
  const raw = env[variable];
  const shown = variable === 'ADMIN_TOKEN' || raw === undefined ? '' : ` (got "${raw}")`;
  return new ConfigError(variable, `Invalid configuration: ${variable} ${issue.message}${shown}`);
};

const parseBrokers = (value: string | undefined): string[] | null => {
  if (value === undefined) return null;
  const brokers = value.split(',').map((broker) => broker.trim()).filter((broker) => broker !== '');
  const bad = brokers.find((broker) => !BROKER_PATTERN.test(broker));
  if (brokers.length === 0 || bad !== undefined) {
    throw new ConfigError('KAFKA_BROKERS', `Invalid configuration: KAFKA_BROKERS must be a comma-separated list of host:port (got "${value}")`);
  }
  return brokers;
};

const checkRedisUrl = (value: string | undefined): string | null => {
  if (value === undefined) return null;
  for (const url of value.split(',')) {
    if (!/^rediss?:\/\/\S+$/.test(url.trim())) {
      throw new ConfigError('REDIS_URL', `Invalid configuration: REDIS_URL must be a redis:// or rediss:// URL (got "${value}")`);
    }
  }
  return value;
};

/**
 * Embedded adapters live inside one process: the memory read model and the in-process change
 * stream cannot be shared by separate api / projector / admin processes (DESIGN.md §2).
 */
const checkProfile = (role: ProcessRole, redisUrl: string | null, kafkaBrokers: readonly string[] | null): void => {
  const needsRedis = role === 'api' || role === 'projector' || role === 'admin';
  const needsKafka = role === 'api' || role === 'projector';
  if (needsRedis && redisUrl === null) {
    throw new ConfigError(
      'REDIS_URL',
      `Invalid configuration: REDIS_URL is required for the separate "${role}" process; the in-memory read model exists only inside one process (use "pubstream start" for the embedded profile)`,
    );
  }
  if (needsKafka && kafkaBrokers === null) {
    throw new ConfigError(
      'KAFKA_BROKERS',
      `Invalid configuration: KAFKA_BROKERS is required for the separate "${role}" process; the in-process change stream cannot reach other processes (use "pubstream start" for the embedded profile)`,
    );
  }
};

/**
 * Parses and checks the environment for one process role. Returns a frozen object, or throws a
 * ConfigError whose message is one line naming the bad variable.
 */
export const loadConfig = (env: Readonly<Record<string, string | undefined>>, role: ProcessRole, cwd: string = process.cwd()): Config => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw first ? describeIssue(first, env) : new ConfigError('environment', 'Invalid configuration');
  }
  const values = parsed.data;
  const dataDir = resolve(cwd, values.DATA_DIR);
  const eventStore = parseEventStoreUrl(values.EVENT_STORE_URL, values.DATA_DIR, cwd);
  if (eventStore === null) {
    throw new ConfigError(
      'EVENT_STORE_URL',
      `Invalid configuration: EVENT_STORE_URL must be sqlite:<path> or an esdb:// connection string (got "${values.EVENT_STORE_URL ?? ''}")`,
    );
  }
  const redisUrl = checkRedisUrl(values.REDIS_URL);
  const kafkaBrokers = parseBrokers(values.KAFKA_BROKERS);
  checkProfile(role, redisUrl, kafkaBrokers);

  const servesAdmin = role === 'all-in-one' || role === 'admin';
  if (servesAdmin && values.NODE_ENV === 'production' && values.ADMIN_TOKEN === undefined) {
    throw new ConfigError('ADMIN_TOKEN', 'Invalid configuration: ADMIN_TOKEN is required when NODE_ENV=production (at least 16 characters)');
  }

  const allowedHosts = parseAllowedHosts(values.ADMIN_ALLOWED_HOSTS, values.ADMIN_HOST);
  if ('invalid' in allowedHosts) {
    throw new ConfigError(
      'ADMIN_ALLOWED_HOSTS',
      `Invalid configuration: ADMIN_ALLOWED_HOSTS must be a comma-separated list of host names or addresses, or * (got "${allowedHosts.invalid}")`,
    );
  }
  if (values.ADMIN_AUTH_MAX_BLOCK_MS < values.ADMIN_AUTH_BLOCK_MS) {
    throw new ConfigError('ADMIN_AUTH_MAX_BLOCK_MS', `Invalid configuration: ADMIN_AUTH_MAX_BLOCK_MS must be at least ADMIN_AUTH_BLOCK_MS (${values.ADMIN_AUTH_BLOCK_MS})`);
  }
  const shortestRequest = Math.min(values.HTTP_REQUEST_TIMEOUT_MS, values.ADMIN_REQUEST_TIMEOUT_MS);
  if (values.HTTP_HEADERS_TIMEOUT_MS > shortestRequest) {
    throw new ConfigError(
      'HTTP_HEADERS_TIMEOUT_MS',
      `Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS or ADMIN_REQUEST_TIMEOUT_MS (got "${values.HTTP_HEADERS_TIMEOUT_MS}")`,
    );
  }

  const adminHostForUrl = values.ADMIN_HOST === '0.0.0.0' || values.ADMIN_HOST === '::' ? '127.0.0.1' : values.ADMIN_HOST;
  return Object.freeze({
    role,
    nodeEnv: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    adminPort: values.ADMIN_PORT,
    adminHost: values.ADMIN_HOST,
    projectorPort: values.PROJECTOR_PORT,
    adminToken: values.ADMIN_TOKEN ?? null,
    adminAllowedHosts: Object.freeze([...allowedHosts.hosts]),
    adminAuthMaxFailures: values.ADMIN_AUTH_MAX_FAILURES,
    adminAuthBlockMs: values.ADMIN_AUTH_BLOCK_MS,
    adminAuthMaxBlockMs: values.ADMIN_AUTH_MAX_BLOCK_MS,
    adminUrl: (values.ADMIN_URL ?? `http://${adminHostForUrl.includes(':') ? `[${adminHostForUrl}]` : adminHostForUrl}:${values.ADMIN_PORT}`).replace(/\/+$/, ''),
    dataDir,
    eventStore: Object.freeze(eventStore),
    redisUrl,
    kafkaBrokers: kafkaBrokers === null ? null : Object.freeze(kafkaBrokers),
    kafkaTopic: values.KAFKA_TOPIC,
    streamTtlMs: values.STREAM_TTL_MS,
    rateLimitWindow: values.RATE_LIMIT_WINDOW,
    rateLimitWindowSeconds: values.RATE_LIMIT_WINDOW === 'hour' ? 3600 : 60,
    acceptTestKeys: values.ACCEPT_TEST_KEYS,
    requireBrowserOrigin: values.REQUIRE_BROWSER_ORIGIN,
    logLevel: values.LOG_LEVEL,
    readYourWritesTimeoutMs: values.READ_YOUR_WRITES_TIMEOUT_MS,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    httpHeadersTimeoutMs: values.HTTP_HEADERS_TIMEOUT_MS,
    httpRequestTimeoutMs: values.HTTP_REQUEST_TIMEOUT_MS,
    adminRequestTimeoutMs: values.ADMIN_REQUEST_TIMEOUT_MS,
    httpKeepAliveTimeoutMs: values.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerAddress: values.MAX_CONNECTIONS_PER_ADDRESS,
    shutdownReconnectWindowMs: values.SHUTDOWN_RECONNECT_WINDOW_MS,
    maxStreamsPerAddress: values.MAX_STREAMS_PER_ADDRESS,
    maxStreamsPerKey: values.MAX_STREAMS_PER_KEY === 0 ? null : values.MAX_STREAMS_PER_KEY,
    streamBufferBudgetBytes: values.STREAM_BUFFER_BUDGET_MB * 1024 * 1024,
  });
};
