import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** infra/local/, where the scripts that start Redis, a Redis Cluster and Kafka without Docker live. */
const infraLocalDir = fileURLToPath(new URL('../../../infra/local/', import.meta.url));

export type LocalScript = 'redis.sh' | 'redis-cluster.sh' | 'kafka.sh';

/**
 * Runs one infra/local script and resolves with what it printed on stdout (the URL or address),
 * trimmed. Its stderr (progress, errors) is kept for the rejection message.
 */
export const runLocalScript = (script: LocalScript, args: readonly string[], timeoutMs = 120_000): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(`${infraLocalDir}${script}`, [...args], { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const detail = String(stderr).trim().split('\n').slice(-3).join(' | ');
        reject(new Error(`${script} ${args.join(' ')} failed: ${detail || error.message}`, { cause: error }));
        return;
      }
      resolve(String(stdout).trim());
    });
  });

/** The synchronous form, for process-exit hooks where nothing asynchronous runs any more. */
export const runLocalScriptSync = (script: LocalScript, args: readonly string[]): void => {
  try {
    execFileSync(`${infraLocalDir}${script}`, [...args], { stdio: 'ignore', timeout: 15_000 });
  } catch {
    // Best effort at exit: the server may already be gone.
  }
};
