import { loadConfig } from '@pubstream/config';
import { describe, expect, it } from 'vitest';
import { apiWorkerPlan } from './apiWorkerPlan.js';

const plan = (env: Record<string, string>) => apiWorkerPlan(loadConfig(env, 'all-in-one', '/srv'));

describe('apiWorkerPlan', () => {
  it('runs API_WORKERS workers that follow a SQLite log file', () => {
    expect(plan({ API_WORKERS: '3' })).toEqual({ count: 3, mode: 'followLog', reason: null });
  });

  it('runs one process, as before workers, for API_WORKERS=1', () => {
    expect(plan({ API_WORKERS: '1' })).toEqual({ count: 1, mode: 'single', reason: null });
  });

  it('runs workers reading Redis when the change stream is Kafka', () => {
    expect(plan({ API_WORKERS: '2', REDIS_URL: 'redis://r:6379', KAFKA_BROKERS: 'k:9092' })).toEqual({ count: 2, mode: 'shared', reason: null });
  });

  it.each([
    [{ EVENT_STORE_URL: 'sqlite::memory:' }, /sqlite::memory:/],
    [{ EVENT_STORE_URL: 'esdb://localhost:2113?tls=false' }, /EventStoreDB/],
    [{ REDIS_URL: 'redis://r:6379' }, /KAFKA_BROKERS/],
  ])('falls back to one process, saying why, for %j', (env, why) => {
    const fallback = plan({ API_WORKERS: '2', ...env });
    expect(fallback).toMatchObject({ count: 1, mode: 'single' });
    expect(fallback.reason).toMatch(why);
  });
});
