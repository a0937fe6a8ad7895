import { freePort } from './freePort.js';
import type { StartedBackend } from './startedBackend.js';

/** Container images, overridable (REDIS_IMAGE, KAFKA_IMAGE, ESDB_IMAGE) by the global setup. */
export interface ContainerImages {
  redis: string;
  kafka: string;
  esdb: string;
}

export const defaultContainerImages: ContainerImages = {
  redis: 'redis:7.2-alpine',
  // KafkaContainer drives Confluent's images; 7.9 is Apache Kafka 3.9, the version kafka.sh runs.
  kafka: 'confluentinc/cp-kafka:7.9.0',
  esdb: 'docker.eventstore.com/eventstore/eventstore:24.10',
};

/** A single Redis in a container (@testcontainers/redis). */
export const startRedisContainer = async (image: string): Promise<StartedBackend> => {
  const { RedisContainer } = await import('@testcontainers/redis');
  const container = await new RedisContainer(image).start();
  return { url: container.getConnectionUrl(), source: `testcontainers ${image}`, stop: async () => void (await container.stop()) };
};

/**
 * A three-master Redis Cluster in ONE container. The nodes announce 127.0.0.1 and listen on the same
 * port numbers inside and outside the container, so the addresses they gossip work both for each
 * other and for clients on the host (three separate containers would announce unreachable IPs).
 */
export const startRedisClusterContainer = async (image: string): Promise<StartedBackend> => {
  const { GenericContainer, Wait } = await import('testcontainers');
  const ports = [await freePort(), await freePort(), await freePort()];
  const script = [
    `for p in ${ports.join(' ')}; do`,
    `  redis-server --port $p --protected-mode no --save '' --appendonly no --cluster-enabled yes`,
    `    --cluster-config-file nodes-$p.conf --cluster-announce-ip 127.0.0.1 --dir /tmp --daemonize yes;`,
    `  until redis-cli -p $p ping >/dev/null 2>&1; do sleep 0.1; done;`,
    `done;`,
    `redis-cli --cluster create ${ports.map((p) => `127.0.0.1:${p}`).join(' ')} --cluster-replicas 0 --cluster-yes;`,
    `for p in ${ports.join(' ')}; do until redis-cli -p $p cluster info | grep -q cluster_state:ok; do sleep 0.1; done; done;`,
    `echo PUBSTREAM_CLUSTER_READY; exec tail -f /dev/null`,
  ].join(' ');
  const container = await new GenericContainer(image)
    .withEntrypoint(['sh', '-c'])
    .withCommand([script])
    .withExposedPorts(...ports.map((port) => ({ container: port, host: port })))
    .withWaitStrategy(Wait.forLogMessage('PUBSTREAM_CLUSTER_READY'))
    .withStartupTimeout(60_000)
    .start();
  return {
    url: ports.map((port) => `redis://127.0.0.1:${port}`).join(','),
    source: `testcontainers ${image} (3-master cluster)`,
    stop: async () => void (await container.stop()),
  };
};

/** A single-node Kafka in KRaft mode (@testcontainers/kafka). */
export const startKafkaContainer = async (image: string): Promise<StartedBackend> => {
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const container = await new KafkaContainer(image).withKraft().start();
  return {
    url: `${container.getHost()}:${container.getMappedPort(9093)}`,
    source: `testcontainers ${image}`,
    stop: async () => void (await container.stop()),
  };
};

/** EventStoreDB or KurrentDB (by the image name) in insecure single-node mode, in memory. */
export const startEsdbContainer = async (image: string): Promise<StartedBackend> => {
  const { GenericContainer, Wait } = await import('testcontainers');
  const prefix = image.includes('kurrent') ? 'KURRENTDB' : 'EVENTSTORE';
  const container = await new GenericContainer(image)
    .withEnvironment({
      [`${prefix}_INSECURE`]: 'true',
      [`${prefix}_CLUSTER_SIZE`]: '1',
      [`${prefix}_RUN_PROJECTIONS`]: 'None',
      [`${prefix}_MEM_DB`]: 'true',
    })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
    .withStartupTimeout(120_000)
    .start();
  return {
    url: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    source: `testcontainers ${image}`,
    stop: async () => void (await container.stop()),
  };
};
