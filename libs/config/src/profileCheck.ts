import type { ProcessRole } from './config.js';
import { ConfigError } from './configError.js';

/**
 * Embedded adapters live inside one process: the memory read model and the in-process change
 * stream cannot be shared by separate api / projector / admin processes (docs/architecture.md,
 * "Profiles").
 */
export const checkProfile = (role: ProcessRole, redisUrl: string | null, kafkaBrokers: readonly string[] | null): void => {
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
