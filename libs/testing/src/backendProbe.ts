import { Kafka, logLevel } from 'kafkajs';
import { createClient } from 'redis';
import type { BackendName } from './backends.js';

const withTimeout = async <T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/** PING (and, for a cluster node, cluster_state:ok) with no reconnection: the first error counts. */
const probeRedis = async (url: string, cluster: boolean, timeoutMs: number): Promise<void> => {
  const client = createClient({ url, socket: { connectTimeout: timeoutMs, reconnectStrategy: false } });
  let failure: Error | undefined;
  client.on('error', (error: Error) => (failure ??= error));
  try {
    await withTimeout(
      (async () => {
        await client.connect();
        const pong = await client.ping();
        if (pong !== 'PONG') throw new Error(`PING answered ${pong}`);
        if (cluster && !String(await client.sendCommand(['CLUSTER', 'INFO'])).includes('cluster_state:ok')) throw new Error('cluster_state is not ok');
      })(),
      timeoutMs,
      url,
    );
  } catch (error) {
    // The client's own error (e.g. "-DENIED … protected mode") says more than a closed socket.
    throw failure ?? error;
  } finally {
    client.destroy();
  }
};

const probeKafka = async (brokers: string, timeoutMs: number): Promise<void> => {
  const admin = new Kafka({ clientId: 'pubstream-probe', brokers: brokers.split(','), logLevel: logLevel.NOTHING, connectionTimeout: timeoutMs, retry: { retries: 2 } }).admin();
  try {
    await withTimeout(
      (async () => {
        await admin.connect();
        const { brokers: found } = await admin.describeCluster();
        if (found.length === 0) throw new Error('the cluster has no broker');
      })(),
      timeoutMs,
      brokers,
    );
  } finally {
    await admin.disconnect().catch(() => {});
  }
};

/**
 * Does a backend answer from this process, within `timeoutMs`? The global setup asks every backend
 * it started in a container before handing it to the tests: a container can be "started" (its log
 * line printed) and still refuse every client outside it, e.g. a Redis in protected mode answering
 * `-DENIED`. A client that reconnects forever (connectRedis) would then hang each suite's
 * beforeAll until the hook timeout, instead of the run falling back to a local process.
 */
export const probeBackend = async (name: BackendName, url: string, timeoutMs = 10_000): Promise<void> => {
  if (name === 'redis') return probeRedis(url, false, timeoutMs);
  if (name === 'redisCluster') {
    await Promise.all(url.split(',').map((node) => probeRedis(node.trim(), true, timeoutMs)));
    return;
  }
  if (name === 'kafka') return probeKafka(url, timeoutMs);
  // EventStoreDB: its container's wait strategy already asked /health/live over HTTP.
};
