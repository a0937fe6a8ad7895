import { fileURLToPath } from 'node:url';
import { freePort, spawnNodeChild, waitUntilHealthy, type NodeChild } from '@pubstream/testing';

const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const MAIN = 'apps/cli/src/main.ts';

export interface NodeProcess extends NodeChild {
  readonly role: string;
  /** http://127.0.0.1:PORT: the API, the admin API, or the projector's health and metrics listener (the port the test chose). */
  readonly url: string;
}

/**
 * `node --import tsx apps/cli/src/main.ts <args>` (the real CLI) from the repository root, listening
 * on loopback, with `env` over a minimal base environment (PATH and HOME). One public API process
 * per node unless `env` sets API_WORKERS: these tests kill, freeze and measure a node by its pid.
 */
export const spawnCli = (args: readonly string[], env: Record<string, string>): NodeChild =>
  spawnNodeChild(MAIN, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', API_WORKERS: '1', ...env },
  });

/**
 * Spawns `node --import tsx apps/cli/src/main.ts <role>` (the real CLI) with `env` over a minimal
 * base environment. It chooses a free port (PORT, ADMIN_PORT or PROJECTOR_PORT) and resolves once
 * /healthz answers there.
 */
export const startNodeProcess = async (
  role: 'api' | 'projector' | 'admin',
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  /** false: resolve at once (a process that may exit on purpose before it answers, e.g. a crash test). */
  untilHealthy = true,
): Promise<NodeProcess> => {
  const port = await freePort();
  const child = spawnCli([role], {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    ...(role === 'api' ? { PORT: String(port) } : role === 'admin' ? { ADMIN_PORT: String(port) } : { PROJECTOR_PORT: String(port) }),
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  const node: NodeProcess = { ...child, role, url };
  if (untilHealthy) {
    try {
      await waitUntilHealthy(child, `${url}/healthz`, { what: role, timeoutMs: readyTimeoutMs, everyMs: 100, healthy: (status) => status < 500 });
    } catch (error) {
      await node.kill();
      throw error;
    }
  }
  return node;
};
