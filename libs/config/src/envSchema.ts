import { z } from 'zod';
import { parseDurationMs } from './duration.js';

const port = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a port number' })
    .int('must be an integer port number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(fallback);

const positiveMs = (fallback: number) =>
  z.coerce.number({ error: 'must be a number of milliseconds' }).int('must be a whole number of milliseconds').positive('must be positive').default(fallback);

const count = (fallback: number) =>
  z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(fallback);

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .default(fallback);

const optionalText = z
  .string()
  .transform((value) => value.trim())
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * Every environment variable Pubstream reads (docs/operations.md, "Configuration"). The same names mean the same thing
 * in every process; each role uses the subset it needs. Defaults are the embedded profile's.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  PORT: port(8080),
  HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  ADMIN_PORT: port(8081),
  ADMIN_HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  /** `pubstream projector` serves /healthz, /readyz and /metrics on ADMIN_HOST:PROJECTOR_PORT. */
  PROJECTOR_PORT: port(8082),
  ADMIN_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** Host header values the admin port answers (comma-separated, `*` for any); default: loopback names and ADMIN_HOST. */
  ADMIN_ALLOWED_HOSTS: optionalText,
  /** Failed admin authentications (wrong token, failed sign-in) allowed per client address per minute. */
  ADMIN_AUTH_MAX_FAILURES: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be positive').default(5),
  /** The first block after too many failures; each repeated block doubles it, up to ADMIN_AUTH_MAX_BLOCK_MS. */
  ADMIN_AUTH_BLOCK_MS: positiveMs(60_000),
  ADMIN_AUTH_MAX_BLOCK_MS: positiveMs(3_600_000),
  /** Where CLI commands (import, keys) reach a running admin API. */
  ADMIN_URL: optionalText.pipe(z.url({ error: 'must be an http(s) URL' }).optional()),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  EVENT_STORE_URL: optionalText,
  REDIS_URL: optionalText,
  KAFKA_BROKERS: optionalText,
  KAFKA_TOPIC: z.string().regex(/^[A-Za-z0-9._-]{1,249}$/, 'must be a valid Kafka topic name').default('pubstream.changes'),
  STREAM_TTL_MS: positiveMs(300_000),
  RATE_LIMIT_WINDOW: z.enum(['minute', 'hour'], { error: 'must be minute or hour' }).default('minute'),
  ACCEPT_TEST_KEYS: flag(true),
  REQUIRE_BROWSER_ORIGIN: flag(false),
  ACCESS_LOG: flag(false),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' })
    .default('info'),
  READ_YOUR_WRITES_TIMEOUT_MS: positiveMs(5_000),
  SHUTDOWN_TIMEOUT_MS: positiveMs(10_000),
  /** Bound of every read-model Redis command of the API and the admin, and of each /readyz check (docs/operations.md). */
  REDIS_COMMAND_TIMEOUT_MS: positiveMs(1_000),
  // node:http settings of both listeners (docs/security.md).
  HTTP_HEADERS_TIMEOUT_MS: positiveMs(15_000),
  HTTP_REQUEST_TIMEOUT_MS: positiveMs(30_000),
  ADMIN_REQUEST_TIMEOUT_MS: positiveMs(600_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveMs(5_000),
  MAX_CONNECTIONS_PER_ADDRESS: count(1_000),
  SHUTDOWN_RECONNECT_WINDOW_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(0, 'must be 0 or more')
    .default(10_000),
  MAX_STREAMS_PER_ADDRESS: count(500),
  /** An operator's cap on concurrent streams per key, below the plan's; 0 = the plan's cap. */
  MAX_STREAMS_PER_KEY: count(0),
  /** How long the change history keeps every change: resumes and `changes?since=` reach this far back (docs/operations.md). */
  RESUME_WINDOW: z
    .string()
    .default('24h')
    .transform((value, ctx) => {
      const ms = parseDurationMs(value);
      if (ms === null) ctx.addIssue({ code: 'custom', message: 'must be a duration such as 90s, 30m, 24h, 7d or milliseconds' });
      return ms ?? 0;
    }),
  /** How long a read with ?minPosition= (or a resume ahead of the node) waits for the node to catch up. */
  MIN_POSITION_WAIT_MS: positiveMs(2_000),
  STREAM_BUFFER_BUDGET_MB: z.coerce.number({ error: 'must be a whole number of MiB' }).int('must be a whole number of MiB').positive('must be positive').default(64),
  // HTTP caching and compression of public reads (docs/public-api.md, "Caching and compression").
  /** `Cache-Control: private, max-age=N` on public reads; 0: a browser revalidates every time (ETag, 304). */
  CACHE_MAX_AGE_SECONDS: count(0),
  /** `stale-while-revalidate=N` beside max-age; 0 leaves it out. */
  CACHE_STALE_WHILE_REVALIDATE_SECONDS: count(0),
  /** JSON answers at least this long are compressed (br or gzip) when the client accepts it. */
  COMPRESSION_MIN_BYTES: count(1_024),
  /** Public API worker processes sharing PORT (docs/operations.md, "API workers"); unset: one per core. */
  API_WORKERS: z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(256, 'must be at most 256').optional(),
});

export type Env = z.infer<typeof envSchema>;
