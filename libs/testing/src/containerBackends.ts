import { execFileSync } from 'node:child_process';
import type { StartedTestContainer } from 'testcontainers';
import { freePort } from './freePort.js';
import type { StartedBackend } from './startedBackend.js';

/** Container images, overridable (REDIS_IMAGE, KAFKA_IMAGE, ESDB_IMAGE) by the global setup. */
export interface ContainerImages {
  redis: string;
  kafka: string;
  esdb: string;
}

/**
 * Redis and Kafka: the images infra/images/build.sh builds here without any registry. Any Redis
 * image works as REDIS_IMAGE; KAFKA_IMAGE must take its broker settings from KAFKA_* variables
 * (ours, or apache/kafka). EventStoreDB cannot be built here (docs/testing.md).
 */
export const defaultContainerImages: ContainerImages = {
  redis: 'pubstream-redis:local',
  kafka: 'pubstream-kafka:local',
  esdb: 'docker.eventstore.com/eventstore/eventstore:24.10',
};

/** Labels put on every container, so a run can find what it left behind (scripts/test.mjs). */
export type ContainerLabels = Record<string, string>;

/**
 * Where published ports are reached: testcontainers says "localhost" for a local engine, which
 * resolves to ::1 first; docker-proxy may or may not listen on IPv6 (it does not where IPv6 is off),
 * so name the IPv4 loopback, where a published port always answers. A remote engine keeps its name.
 */
const hostOf = (container: StartedTestContainer): string => (container.getHost() === 'localhost' ? '127.0.0.1' : container.getHost());

/** A started container as a backend: stop() removes it; stopSync() is for an interrupted run. */
const asBackend = (container: StartedTestContainer, url: string, source: string): StartedBackend => ({
  url,
  source: `${source}, container ${container.getId().slice(0, 12)}`,
  stop: async () => void (await container.stop()),
  stopSync: () => {
    try {
      execFileSync('docker', ['rm', '-f', '-v', container.getId()], { stdio: 'ignore', timeout: 15_000 });
    } catch {
      // Best effort at exit: no docker CLI, or the container is gone already.
    }
  },
});

/**
 * Ports published as host port = container port: a broker or cluster node advertises the address
 * clients must use, so it has to know the host port before it starts. Another process may take
 * the free port first; then the start fails and is tried once more with a new one.
 */
const withFixedPorts = async <T>(count: number, start: (ports: number[]) => Promise<T>): Promise<T> => {
  const pick = async () => Promise.all(Array.from({ length: count }, () => freePort()));
  try {
    return await start(await pick());
  } catch (error) {
    if (!/port is already allocated|address already in use/i.test(String(error))) throw error;
    return start(await pick());
  }
};

/** A single Redis in a container (@testcontainers/redis). */
export const startRedisContainer = async (image: string, labels: ContainerLabels = {}): Promise<StartedBackend> => {
  const { RedisContainer } = await import('@testcontainers/redis');
  const container = await new RedisContainer(image).withLabels(labels).start();
  return asBackend(container, `redis://${hostOf(container)}:${container.getMappedPort(6379)}`, `testcontainers ${image}`);
};

/**
 * A three-master Redis Cluster in ONE container. The nodes announce 127.0.0.1 and listen on the same
 * port numbers inside and outside the container, so the addresses they gossip work both for each
 * other and for clients on the host (three separate containers would announce unreachable IPs).
 * The cluster bus ports stay inside the container (17001-17003: port + 10000 may pass 65535).
 */
export const startRedisClusterContainer = async (image: string, labels: ContainerLabels = {}): Promise<StartedBackend> => {
  const { GenericContainer, Wait } = await import('testcontainers');
  return withFixedPorts(3, async (ports) => {
    const script = [
      `i=0; for p in ${ports.join(' ')}; do i=$((i+1));`,
      `  redis-server --port $p --cluster-port $((17000+i)) --protected-mode no --save '' --appendonly no --cluster-enabled yes`,
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
      .withLabels(labels)
      .withExposedPorts(...ports.map((port) => ({ container: port, host: port })))
      .withWaitStrategy(Wait.forLogMessage('PUBSTREAM_CLUSTER_READY'))
      .withStartupTimeout(60_000)
      .start();
    return asBackend(container, ports.map((port) => `redis://127.0.0.1:${port}`).join(','), `testcontainers ${image} (3-master cluster)`);
  });
};

/**
 * Broker settings of a single-node KRaft Kafka whose HOST listener is published as the same port
 * on the host (advertised as 127.0.0.1:port), plus PLAINTEXT on 9092 for other containers.
 */
export const kafkaSettings = (hostPort: number, internalHost = 'localhost'): Record<string, string> => ({
  KAFKA_NODE_ID: '1',
  KAFKA_PROCESS_ROLES: 'broker,controller',
  KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
  KAFKA_LISTENERS: `PLAINTEXT://:9092,CONTROLLER://:9093,HOST://:${hostPort}`,
  KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${internalHost}:9092,HOST://127.0.0.1:${hostPort}`,
  KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,HOST:PLAINTEXT',
  KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
  KAFKA_INTER_BROKER_LISTENER_NAME: 'PLAINTEXT',
  KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
  KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '1',
  KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
  KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
  KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
  KAFKA_LOG_DIRS: '/var/lib/kafka/data',
});

/** A single-node Kafka in KRaft mode, reached on 127.0.0.1:port. */
export const startKafkaContainer = async (image: string, labels: ContainerLabels = {}): Promise<StartedBackend> => {
  const { GenericContainer, Wait } = await import('testcontainers');
  return withFixedPorts(1, async ([port = 0]) => {
    const container = await new GenericContainer(image)
      .withEnvironment(kafkaSettings(port))
      .withLabels(labels)
      .withExposedPorts({ container: port, host: port })
      .withWaitStrategy(Wait.forLogMessage('Kafka Server started'))
      .withStartupTimeout(120_000)
      .start();
    return asBackend(container, `127.0.0.1:${port}`, `testcontainers ${image}`);
  });
};

/** EventStoreDB or KurrentDB (by the image name) in insecure single-node mode, in memory. */
export const startEsdbContainer = async (image: string, labels: ContainerLabels = {}): Promise<StartedBackend> => {
  const { GenericContainer, Wait } = await import('testcontainers');
  const prefix = image.includes('kurrent') ? 'KURRENTDB' : 'EVENTSTORE';
  const container = await new GenericContainer(image)
    .withEnvironment({
      [`${prefix}_INSECURE`]: 'true',
      [`${prefix}_CLUSTER_SIZE`]: '1',
      [`${prefix}_RUN_PROJECTIONS`]: 'None',
      [`${prefix}_MEM_DB`]: 'true',
    })
    .withLabels(labels)
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
    .withStartupTimeout(120_000)
    .start();
  return asBackend(container, `esdb://${hostOf(container)}:${container.getMappedPort(2113)}?tls=false`, `testcontainers ${image}`);
};
