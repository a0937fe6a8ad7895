import { ConfigError } from './configError.js';

const BROKER_PATTERN = /^[A-Za-z0-9.-]+:\d{1,5}$/;

/** KAFKA_BROKERS: null when unset, else a list of host:port. */
export const parseKafkaBrokers = (value: string | undefined): string[] | null => {
  if (value === undefined) return null;
  const brokers = value.split(',').map((broker) => broker.trim()).filter((broker) => broker !== '');
  const bad = brokers.find((broker) => !BROKER_PATTERN.test(broker));
  if (brokers.length === 0 || bad !== undefined) {
    throw new ConfigError('KAFKA_BROKERS', `Invalid configuration: KAFKA_BROKERS must be a comma-separated list of host:port (got "${value}")`);
  }
  return brokers;
};

/** REDIS_URL: null when unset, else one or more (comma-separated, for a cluster) redis:// or rediss:// URLs. */
export const checkRedisUrl = (value: string | undefined): string | null => {
  if (value === undefined) return null;
  for (const url of value.split(',')) {
    if (!/^rediss?:\/\/\S+$/.test(url.trim())) {
      throw new ConfigError('REDIS_URL', `Invalid configuration: REDIS_URL must be a redis:// or rediss:// URL (got "${value}")`);
    }
  }
  return value;
};
