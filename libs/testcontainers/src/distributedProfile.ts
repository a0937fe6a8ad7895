import { randomUUID } from 'node:crypto';
import { GenericContainer, Network, Wait, getContainerRuntimeClient, type StartedNetwork, type StartedTestContainer } from 'testcontainers';
import type { DistributedProfileOptions } from './options.js';
import { adminAllowedHosts, httpUrl, startAll, type ProfileSettings, type RunningProfile } from './profileSettings.js';

/** A single-node KRaft broker that the other containers reach as kafka:9092. */
const kafkaEnvironment: Record<string, string> = {
  KAFKA_NODE_ID: '1',
  KAFKA_PROCESS_ROLES: 'broker,controller',
  KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
  KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
  KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://kafka:9092',
  KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
  KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
  KAFKA_INTER_BROKER_LISTENER_NAME: 'PLAINTEXT',
  KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
  KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '1',
  KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
  KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
  KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
  KAFKA_LOG_DIRS: '/var/lib/kafka/data',
};

/** Redis as `redis` and Kafka as `kafka` on the network, started in parallel. */
const startBackends = (network: StartedNetwork, settings: ProfileSettings, options: DistributedProfileOptions) =>
  startAll([
    new GenericContainer(options.redisImage ?? 'pubstream-redis:local')
      .withNetwork(network)
      .withNetworkAliases('redis')
      .withLabels(settings.labels)
      .withWaitStrategy(Wait.forLogMessage('Ready to accept connections'))
      .start(),
    new GenericContainer(options.kafkaImage ?? 'pubstream-kafka:local')
      .withNetwork(network)
      .withNetworkAliases('kafka')
      .withEnvironment(kafkaEnvironment)
      .withLabels(settings.labels)
      .withWaitStrategy(Wait.forLogMessage('Kafka Server started'))
      .withStartupTimeout(Math.max(settings.startupTimeoutMs, 120_000))
      .start(),
  ]);

/**
 * The Pubstream processes: the admin first (it creates the event log on the shared volume), then
 * the projector and the API in parallel. Resolves with [admin, projector, api].
 */
const startPubstream = async (network: StartedNetwork, volume: string, settings: ProfileSettings, started: StartedTestContainer[]): Promise<StartedTestContainer[]> => {
  const environment = {
    EVENT_STORE_URL: 'sqlite:/data/events.db',
    REDIS_URL: 'redis://redis:6379',
    KAFKA_BROKERS: 'kafka:9092',
    LOG_LEVEL: 'warn',
    ...settings.environment,
  };
  const node = (role: 'admin' | 'projector' | 'api') =>
    new GenericContainer(settings.image).withCommand([role]).withNetwork(network).withNetworkAliases(role).withLabels(settings.labels).withStartupTimeout(settings.startupTimeoutMs);
  const log = [{ source: volume, target: '/data' }];
  const admin = await node('admin')
    .withEnvironment({ ADMIN_ALLOWED_HOSTS: await adminAllowedHosts(), ...environment, ADMIN_TOKEN: settings.adminToken })
    .withBindMounts(log)
    .withExposedPorts(8081)
    .withWaitStrategy(Wait.forHttp('/readyz', 8081))
    .start();
  started.push(admin);
  const others = await startAll([
    // The projector's only sign of life is its log line, at level info.
    node('projector').withEnvironment({ ...environment, LOG_LEVEL: 'info' }).withBindMounts(log).withWaitStrategy(Wait.forLogMessage('projector active')).start(),
    node('api').withEnvironment(environment).withExposedPorts(8080).withWaitStrategy(Wait.forHttp('/readyz', 8080)).start(),
  ]);
  started.push(...others);
  return [admin, ...others];
};

/** Everything this profile made, removed in reverse order; the log volume last. */
const teardown = async (containers: StartedTestContainer[], network: StartedNetwork | undefined, volume: string): Promise<void> => {
  await Promise.allSettled([...containers].reverse().map((container) => container.stop()));
  await network?.stop().catch(() => {});
  const client = await getContainerRuntimeClient();
  await client.container.dockerode.getVolume(volume).remove().catch(() => {});
};

/**
 * The distributed profile on one container network: Redis (`redis`), Kafka (`kafka`), and the
 * Pubstream image as `admin`, `projector` and `api` (docs/distributed.md). The admin and the
 * projector share the SQLite event log on a volume of their own (one host: docs/distributed.md).
 * A failed start removes whatever had started.
 */
export const startDistributedProfile = async (settings: ProfileSettings, options: DistributedProfileOptions): Promise<RunningProfile> => {
  const containers: StartedTestContainer[] = [];
  const volume = `pubstream-log-${randomUUID()}`;
  let network: StartedNetwork | undefined;
  try {
    // Created here rather than on first mount, so that it carries the labels too.
    await (await getContainerRuntimeClient()).container.dockerode.createVolume({ Name: volume, Labels: settings.labels });
    network = await new Network().start();
    containers.push(...(await startBackends(network, settings, options)));
    const [admin, , api] = await startPubstream(network, volume, settings, containers);
    return {
      publicUrl: httpUrl(api as StartedTestContainer, 8080),
      adminUrl: httpUrl(admin as StartedTestContainer, 8081),
      containers,
      stop: () => teardown(containers, network, volume),
    };
  } catch (error) {
    await teardown(containers, network, volume);
    throw error;
  }
};
