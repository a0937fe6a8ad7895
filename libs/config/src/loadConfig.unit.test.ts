import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './loadConfig.js';

const CWD = '/srv/pubstream';

const errorOf = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('gives the embedded defaults of docs/operations.md for an empty environment', () => {
    const config = loadConfig({}, 'all-in-one', CWD);
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      adminPort: 8081,
      adminHost: '127.0.0.1',
      projectorPort: 8082,
      adminToken: null,
      adminUrl: 'http://127.0.0.1:8081',
      dataDir: '/srv/pubstream/data',
      eventStore: { kind: 'sqlite', path: '/srv/pubstream/data/events.db' },
      redisUrl: null,
      kafkaBrokers: null,
      streamTtlMs: 300_000,
      rateLimitWindow: 'minute',
      rateLimitWindowSeconds: 60,
      acceptTestKeys: true,
      requireBrowserOrigin: false,
      accessLog: false,
      logLevel: 'info',
      readYourWritesTimeoutMs: 5_000,
      shutdownTimeoutMs: 10_000,
      redisCommandTimeoutMs: 1_000,
      adminAllowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      adminAuthMaxFailures: 5,
      adminAuthBlockMs: 60_000,
      adminAuthMaxBlockMs: 3_600_000,
      httpHeadersTimeoutMs: 15_000,
      httpRequestTimeoutMs: 30_000,
      adminRequestTimeoutMs: 600_000,
      httpKeepAliveTimeoutMs: 5_000,
      maxConnectionsPerAddress: 1_000,
      shutdownReconnectWindowMs: 10_000,
      maxStreamsPerAddress: 500,
      maxStreamsPerKey: null,
      streamBufferBudgetBytes: 64 * 1024 * 1024,
      cacheMaxAgeSeconds: 0,
      cacheStaleWhileRevalidateSeconds: 0,
      compressionMinBytes: 1_024,
      resumeWindowMs: 86_400_000,
      minPositionWaitMs: 2_000,
      apiWorkers: Math.max(1, availableParallelism()),
    });
  });

  it('returns a frozen object', () => {
    const config = loadConfig({}, 'all-in-one', CWD);
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow();
  });

  it('parses every variable', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '127.0.0.1',
        ADMIN_PORT: '0',
        PROJECTOR_PORT: '9182',
        ADMIN_TOKEN: 'a-long-enough-admin-token',
        DATA_DIR: '/var/lib/pubstream',
        EVENT_STORE_URL: 'esdb://localhost:2113?tls=false',
        REDIS_URL: 'redis://127.0.0.1:6379',
        KAFKA_BROKERS: 'k1:9092, k2:9092',
        STREAM_TTL_MS: '60000',
        RATE_LIMIT_WINDOW: 'hour',
        ACCEPT_TEST_KEYS: 'false',
        REQUIRE_BROWSER_ORIGIN: '1',
        ACCESS_LOG: 'true',
        LOG_LEVEL: 'debug',
        READ_YOUR_WRITES_TIMEOUT_MS: '250',
        SHUTDOWN_TIMEOUT_MS: '4000',
        REDIS_COMMAND_TIMEOUT_MS: '300',
        ADMIN_ALLOWED_HOSTS: 'Admin.Example.com:8081, 10.0.0.5, ::1',
        ADMIN_AUTH_MAX_FAILURES: '3',
        ADMIN_AUTH_BLOCK_MS: '1000',
        ADMIN_AUTH_MAX_BLOCK_MS: '8000',
        HTTP_HEADERS_TIMEOUT_MS: '2000',
        HTTP_REQUEST_TIMEOUT_MS: '9000',
        ADMIN_REQUEST_TIMEOUT_MS: '60000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '7000',
        MAX_CONNECTIONS_PER_ADDRESS: '0',
        SHUTDOWN_RECONNECT_WINDOW_MS: '0',
        MAX_STREAMS_PER_ADDRESS: '20',
        MAX_STREAMS_PER_KEY: '3',
        STREAM_BUFFER_BUDGET_MB: '16',
        CACHE_MAX_AGE_SECONDS: '5',
        CACHE_STALE_WHILE_REVALIDATE_SECONDS: '30',
        COMPRESSION_MIN_BYTES: '256',
        RESUME_WINDOW: '30m',
        MIN_POSITION_WAIT_MS: '500',
        API_WORKERS: '3',
      },
      'api',
      CWD,
    );
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      adminPort: 0,
      projectorPort: 9182,
      adminToken: 'a-long-enough-admin-token',
      dataDir: '/var/lib/pubstream',
      eventStore: { kind: 'esdb', connectionString: 'esdb://localhost:2113?tls=false' },
      redisUrl: 'redis://127.0.0.1:6379',
      kafkaBrokers: ['k1:9092', 'k2:9092'],
      streamTtlMs: 60_000,
      rateLimitWindow: 'hour',
      rateLimitWindowSeconds: 3600,
      acceptTestKeys: false,
      requireBrowserOrigin: true,
      accessLog: true,
      logLevel: 'debug',
      readYourWritesTimeoutMs: 250,
      shutdownTimeoutMs: 4_000,
      redisCommandTimeoutMs: 300,
      adminAllowedHosts: ['admin.example.com', '10.0.0.5', '[::1]'],
      adminAuthMaxFailures: 3,
      adminAuthBlockMs: 1000,
      adminAuthMaxBlockMs: 8000,
      httpHeadersTimeoutMs: 2_000,
      httpRequestTimeoutMs: 9_000,
      adminRequestTimeoutMs: 60_000,
      httpKeepAliveTimeoutMs: 7_000,
      maxConnectionsPerAddress: 0,
      shutdownReconnectWindowMs: 0,
      maxStreamsPerAddress: 20,
      maxStreamsPerKey: 3,
      streamBufferBudgetBytes: 16 * 1024 * 1024,
      cacheMaxAgeSeconds: 5,
      cacheStaleWhileRevalidateSeconds: 30,
      compressionMinBytes: 256,
      resumeWindowMs: 1_800_000,
      minPositionWaitMs: 500,
      apiWorkers: 3,
    });
  });

  it('resolves sqlite: URLs against the working directory', () => {
    expect(loadConfig({ EVENT_STORE_URL: 'sqlite:./x/events.db' }, 'all-in-one', CWD).eventStore).toMatchObject({ path: '/srv/pubstream/x/events.db' });
    expect(loadConfig({ EVENT_STORE_URL: 'sqlite:/tmp/e.db' }, 'all-in-one', CWD).eventStore).toMatchObject({ path: '/tmp/e.db' });
    expect(loadConfig({ EVENT_STORE_URL: 'sqlite::memory:' }, 'all-in-one', CWD).eventStore).toMatchObject({ path: ':memory:' });
    expect(loadConfig({ DATA_DIR: 'state' }, 'all-in-one', CWD).eventStore).toMatchObject({ path: '/srv/pubstream/state/events.db' });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ ADMIN_PORT: '-1' }, 'ADMIN_PORT'],
    [{ PROJECTOR_PORT: '65536' }, 'PROJECTOR_PORT'],
    [{ RATE_LIMIT_WINDOW: 'day' }, 'RATE_LIMIT_WINDOW'],
    [{ ACCEPT_TEST_KEYS: 'maybe' }, 'ACCEPT_TEST_KEYS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ STREAM_TTL_MS: '0' }, 'STREAM_TTL_MS'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
    [{ EVENT_STORE_URL: 'postgres://x' }, 'EVENT_STORE_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ KAFKA_BROKERS: 'not a broker' }, 'KAFKA_BROKERS'],
    [{ ADMIN_ALLOWED_HOSTS: 'ok.example, http://evil.example/' }, 'ADMIN_ALLOWED_HOSTS'],
    [{ ADMIN_ALLOWED_HOSTS: ' , ' }, 'ADMIN_ALLOWED_HOSTS'],
    [{ ADMIN_AUTH_MAX_FAILURES: '0' }, 'ADMIN_AUTH_MAX_FAILURES'],
    [{ ADMIN_AUTH_BLOCK_MS: 'soon' }, 'ADMIN_AUTH_BLOCK_MS'],
    [{ ADMIN_AUTH_BLOCK_MS: '60000', ADMIN_AUTH_MAX_BLOCK_MS: '1000' }, 'ADMIN_AUTH_MAX_BLOCK_MS'],
    [{ HTTP_REQUEST_TIMEOUT_MS: '0' }, 'HTTP_REQUEST_TIMEOUT_MS'],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '-1' }, 'MAX_CONNECTIONS_PER_ADDRESS'],
    [{ MAX_CONNECTIONS_PER_ADDRESS: 'many' }, 'MAX_CONNECTIONS_PER_ADDRESS'],
    [{ HTTP_HEADERS_TIMEOUT_MS: '40000' }, 'HTTP_HEADERS_TIMEOUT_MS'],
    [{ SHUTDOWN_RECONNECT_WINDOW_MS: '-1' }, 'SHUTDOWN_RECONNECT_WINDOW_MS'],
    [{ MAX_STREAMS_PER_ADDRESS: 'many' }, 'MAX_STREAMS_PER_ADDRESS'],
    [{ STREAM_BUFFER_BUDGET_MB: '0' }, 'STREAM_BUFFER_BUDGET_MB'],
    [{ REDIS_COMMAND_TIMEOUT_MS: '0' }, 'REDIS_COMMAND_TIMEOUT_MS'],
    [{ CACHE_MAX_AGE_SECONDS: '-1' }, 'CACHE_MAX_AGE_SECONDS'],
    [{ CACHE_STALE_WHILE_REVALIDATE_SECONDS: '1.5' }, 'CACHE_STALE_WHILE_REVALIDATE_SECONDS'],
    [{ COMPRESSION_MIN_BYTES: 'big' }, 'COMPRESSION_MIN_BYTES'],
    [{ RESUME_WINDOW: 'a day' }, 'RESUME_WINDOW'],
    [{ RESUME_WINDOW: '0' }, 'RESUME_WINDOW'],
    [{ RESUME_WINDOW: '1.5h' }, 'RESUME_WINDOW'],
    [{ MIN_POSITION_WAIT_MS: '0' }, 'MIN_POSITION_WAIT_MS'],
    [{ API_WORKERS: '0' }, 'API_WORKERS'],
    [{ API_WORKERS: 'all' }, 'API_WORKERS'],
  ])('refuses %j with one line naming %s', (env, variable) => {
    const error = errorOf(() => loadConfig(env, 'all-in-one', CWD));
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain('\n');
  });

  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
    ['5000', 5_000],
  ])('reads RESUME_WINDOW=%s as %i ms', (value, ms) => {
    expect(loadConfig({ RESUME_WINDOW: value }, 'all-in-one', CWD).resumeWindowMs).toBe(ms);
  });

  it('never echoes the admin token in an error', () => {
    const error = errorOf(() => loadConfig({ ADMIN_TOKEN: 'tooshort' }, 'all-in-one', CWD));
    expect(error.message).not.toContain('tooshort');
  });

  it.each(['api', 'projector', 'admin'] as const)('refuses a separate %s process with the in-memory read model', (role) => {
    const error = errorOf(() => loadConfig({ KAFKA_BROKERS: 'k:9092' }, role, CWD));
    expect(error.variable).toBe('REDIS_URL');
    expect(error.message).toMatch(/in-memory read model/);
  });

  it.each(['api', 'projector'] as const)('refuses a separate %s process with the in-process change stream', (role) => {
    const error = errorOf(() => loadConfig({ REDIS_URL: 'redis://r:6379' }, role, CWD));
    expect(error.variable).toBe('KAFKA_BROKERS');
    expect(error.message).toMatch(/in-process change stream/);
  });

  it('lets a separate admin process run without Kafka (it publishes nothing)', () => {
    expect(loadConfig({ REDIS_URL: 'redis://r:6379' }, 'admin', CWD).kafkaBrokers).toBeNull();
  });

  it('requires ADMIN_TOKEN in production for processes serving the admin API', () => {
    expect(errorOf(() => loadConfig({ NODE_ENV: 'production' }, 'all-in-one', CWD)).variable).toBe('ADMIN_TOKEN');
    expect(loadConfig({ NODE_ENV: 'production' }, 'tool', CWD).adminToken).toBeNull();
  });

  it('answers Host names of loopback and of a specific ADMIN_HOST by default, any with *', () => {
    expect(loadConfig({ ADMIN_HOST: 'admin.internal', REDIS_URL: 'redis://r:6379' }, 'admin', CWD).adminAllowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]', 'admin.internal']);
    expect(loadConfig({ ADMIN_HOST: '::1' }, 'all-in-one', CWD).adminAllowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(loadConfig({ ADMIN_HOST: '192.168.1.20' }, 'all-in-one', CWD).adminAllowedHosts).toContain('192.168.1.20');
    expect(loadConfig({ ADMIN_HOST: '0.0.0.0' }, 'all-in-one', CWD).adminAllowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(loadConfig({ ADMIN_HOST: '::' }, 'all-in-one', CWD).adminAllowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(loadConfig({ ADMIN_ALLOWED_HOSTS: 'admin.internal,*' }, 'all-in-one', CWD).adminAllowedHosts).toEqual(['*']);
    expect(loadConfig({ ADMIN_ALLOWED_HOSTS: 'pubstream-admin' }, 'all-in-one', CWD).adminAllowedHosts).toEqual(['pubstream-admin']);
  });

  it('points CLI tools at the admin API', () => {
    expect(loadConfig({ ADMIN_PORT: '9999' }, 'tool', CWD).adminUrl).toBe('http://127.0.0.1:9999');
    expect(loadConfig({ ADMIN_URL: 'http://admin.internal:8081/' }, 'tool', CWD).adminUrl).toBe('http://admin.internal:8081');
  });
});
