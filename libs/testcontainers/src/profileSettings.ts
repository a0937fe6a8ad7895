import { getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

/** What every profile needs to start the Pubstream image. */
export interface ProfileSettings {
  image: string;
  adminToken: string;
  environment: Record<string, string>;
  labels: Record<string, string>;
  startupTimeoutMs: number;
}

/** A started profile: where its APIs answer, its containers, and how to remove everything. */
export interface RunningProfile {
  publicUrl: string;
  adminUrl: string;
  containers: StartedTestContainer[];
  stop(): Promise<void>;
}

/** `host` as it goes into a URL or a Host header (IPv6 addresses in brackets). */
export const urlHost = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * The name under which this process reaches published ports (testcontainers decides: localhost,
 * the Docker gateway when it runs inside a container, or a remote engine's host). The admin port
 * answers only Host names in ADMIN_ALLOWED_HOSTS (421 otherwise, docs/security.md), so that name
 * joins the loopback defaults.
 */
export const adminAllowedHosts = async (): Promise<string> => {
  const { host } = (await getContainerRuntimeClient()).info.containerRuntime;
  return ['localhost', '127.0.0.1', '[::1]', urlHost(host)].join(',');
};

export const httpUrl = (container: StartedTestContainer, port: number): string =>
  `http://${urlHost(container.getHost())}:${container.getMappedPort(port)}`;

/**
 * Starts containers in parallel. When one fails, the others that did start are stopped before the
 * error is thrown, so a failed start leaves nothing running.
 */
export const startAll = async (starts: Promise<StartedTestContainer>[]): Promise<StartedTestContainer[]> => {
  const results = await Promise.allSettled(starts);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failed) {
    await Promise.allSettled(started.map((container) => container.stop()));
    throw failed.reason;
  }
  return started;
};
