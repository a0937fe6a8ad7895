// `pubstream start` as its own process (`node --import tsx apps/cli/src/main.ts start`), for tests
// about a process dying, its memory or its time: they must not share the test's event loop or heap.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitUntilHealthy, type NodeChild } from '@pubstream/testing';
import { spawnCli } from '../../../apps/cli/src/distributed/testing/nodeProcess.js';

export interface StartedProcess extends Pick<NodeChild, 'child' | 'pid' | 'output' | 'isRunning' | 'memory'> {
  readonly publicUrl: string;
  readonly adminUrl: string;
  readonly adminToken: string;
  /** SIGTERM, SIGKILL after 10 s; removes the data directory. */
  stop(): Promise<void>;
}

/** Starts the embedded profile on free loopback ports with a SQLite log in a fresh directory. */
export const startPubstreamProcess = async (env: Record<string, string> = {}): Promise<StartedProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-proc-'));
  const [port, adminPort] = [await freePort(), await freePort()];
  const adminToken = 'edge-test-admin-token-0123456789';
  const node = spawnCli(['start', '--no-demo'], { PORT: String(port), ADMIN_PORT: String(adminPort), ADMIN_TOKEN: adminToken, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env });
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  try {
    await waitUntilHealthy(node, `${adminUrl}/healthz`, { what: 'pubstream start', timeoutMs: 60_000, everyMs: 100, healthy: (status) => status >= 200 && status < 300 });
  } catch (error) {
    await node.kill();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    child: node.child,
    pid: node.pid,
    publicUrl: `http://127.0.0.1:${port}`,
    adminUrl,
    adminToken,
    output: node.output,
    isRunning: node.isRunning,
    memory: node.memory,
    async stop() {
      await node.stop(10_000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
