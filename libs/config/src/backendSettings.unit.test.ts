import { describe, expect, it } from 'vitest';
import { checkRedisUrl, parseKafkaBrokers } from './backendSettings.js';
import { ConfigError } from './configError.js';

describe('KAFKA_BROKERS', () => {
  it('given a list with spaces and empty entries, then the trimmed brokers', () => {
    expect(parseKafkaBrokers(' k1:9092 ,k2.internal:19092,, ')).toEqual(['k1:9092', 'k2.internal:19092']);
    expect(parseKafkaBrokers(undefined)).toBeNull();
  });

  it('given a broker without a port, or only commas, then a ConfigError naming the variable', () => {
    for (const value of ['k1', 'k1:9092,k2', ',,', 'http://k1:9092']) {
      expect(() => parseKafkaBrokers(value)).toThrow(ConfigError);
      expect(() => parseKafkaBrokers(value)).toThrow(/KAFKA_BROKERS must be a comma-separated list of host:port/);
    }
  });
});

describe('REDIS_URL', () => {
  it('given one URL or a cluster list of redis:// and rediss:// URLs, then it as given', () => {
    expect(checkRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(checkRedisUrl('redis://a:1, rediss://b:2')).toBe('redis://a:1, rediss://b:2');
    expect(checkRedisUrl(undefined)).toBeNull();
  });

  it('given any entry that is not a redis URL, then a ConfigError naming the variable', () => {
    expect(() => checkRedisUrl('redis://a:1,localhost:6379')).toThrow(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
  });
});
