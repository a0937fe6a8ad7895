import type { TestProject } from 'vitest/node';
import type { Backends } from './backends.js';

/**
 * Provides backend URLs to every test. This first version reads them from the environment only;
 * the infrastructure harness (testcontainers, then infra/local scripts) extends it.
 */
export default async function setup(project: TestProject): Promise<void> {
  const backends: Backends = { skipped: {} };
  const env = process.env;
  if (env.REDIS_URL) backends.redis = env.REDIS_URL;
  else backends.skipped.redis = 'REDIS_URL not set';
  if (env.REDIS_CLUSTER_URLS) backends.redisCluster = env.REDIS_CLUSTER_URLS;
  else backends.skipped.redisCluster = 'REDIS_CLUSTER_URLS not set';
  if (env.KAFKA_BROKERS) backends.kafka = env.KAFKA_BROKERS;
  else backends.skipped.kafka = 'KAFKA_BROKERS not set';
  if (env.ESDB_CONNECTION_STRING) backends.esdb = env.ESDB_CONNECTION_STRING;
  else backends.skipped.esdb = 'ESDB_CONNECTION_STRING not set';
  project.provide('backends', backends);
}
