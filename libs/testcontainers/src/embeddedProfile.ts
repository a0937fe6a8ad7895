import { GenericContainer, Wait } from 'testcontainers';
import { adminAllowedHosts, httpUrl, type ProfileSettings, type RunningProfile } from './profileSettings.js';

/**
 * The embedded profile: one container running `pubstream start --no-demo` (SQLite log, memory read
 * models, in-process change stream). Ready when both ports answer /readyz.
 */
export const startEmbeddedProfile = async (settings: ProfileSettings): Promise<RunningProfile> => {
  const container = await new GenericContainer(settings.image)
    .withCommand(['start', '--no-demo'])
    .withEnvironment({ LOG_LEVEL: 'warn', ADMIN_ALLOWED_HOSTS: await adminAllowedHosts(), ...settings.environment, ADMIN_TOKEN: settings.adminToken })
    .withLabels(settings.labels)
    .withExposedPorts(8080, 8081)
    .withWaitStrategy(Wait.forAll([Wait.forHttp('/readyz', 8080), Wait.forHttp('/readyz', 8081)]))
    .withStartupTimeout(settings.startupTimeoutMs)
    .start();
  return {
    publicUrl: httpUrl(container, 8080),
    adminUrl: httpUrl(container, 8081),
    containers: [container],
    stop: async () => void (await container.stop()),
  };
};
