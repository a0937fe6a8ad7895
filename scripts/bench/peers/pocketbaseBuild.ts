import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MODULE = 'github.com/pocketbase/pocketbase';

export interface PocketBaseBinary {
  readonly path: string;
  readonly version: string;
}

const run = (command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000) =>
  spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, ...env }, cwd: os.tmpdir() });

/** Where built binaries are kept between runs (outside the repo). */
const cacheDir = (version: string): string =>
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'pubstream', `pocketbase-${version}`);

/** Released versions of PocketBase on the Go module proxy, newest first. */
const releasedVersions = (): string[] => {
  const listed = run('go', ['list', '-m', '-versions', MODULE]);
  if (listed.status !== 0) throw new Error(`go list -m -versions ${MODULE} failed: ${listed.stderr.trim().split('\n').pop() ?? ''}`);
  return listed.stdout.trim().split(/\s+/).slice(1).filter((v) => /^v\d+\.\d+\.\d+$/.test(v)).reverse();
};

/**
 * The newest PocketBase that the local Go toolchain builds (`go install …/examples/base@vX`, pure Go,
 * CGO off), built once into a cache folder; versions that need a newer Go are skipped. Returns the
 * reason as a string when there is no Go toolchain or nothing builds.
 */
export const buildPocketBase = (log: (line: string) => void): PocketBaseBinary | string => {
  const go = run('go', ['version']);
  if (go.error || go.status !== 0) return 'no Go toolchain on this machine (go version failed)';
  let versions: string[];
  try {
    versions = releasedVersions();
  } catch (error) {
    return (error as Error).message;
  }
  for (const version of versions.slice(0, 6)) {
    const dir = cacheDir(version);
    const binary = path.join(dir, 'base');
    if (existsSync(binary)) return { path: binary, version };
    mkdirSync(dir, { recursive: true });
    log(`  building PocketBase ${version} with ${go.stdout.trim()} (first run only, minutes)`);
    const built = run('go', ['install', `${MODULE}/examples/base@${version}`], { GOBIN: dir, CGO_ENABLED: '0', GOTOOLCHAIN: 'local' }, 1_800_000);
    if (built.status === 0 && existsSync(binary)) return { path: binary, version };
    const reason = built.stderr.trim().split('\n').pop() ?? '';
    log(`  PocketBase ${version} does not build here: ${reason}`);
    if (!/requires go >=/.test(reason)) return `PocketBase ${version} failed to build: ${reason}`;
  }
  return 'no recent PocketBase version builds with the local Go toolchain';
};
