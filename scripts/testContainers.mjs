// The container engine of `npm test` (docs/testing.md, "Containers in npm test"): make sure one
// answers (infra/local/dockerd.sh installs docker.io and starts dockerd when none does, as root),
// build the images (infra/images/build.sh, cached by content), and afterwards remove what the run
// left behind and stop the dockerd it started (when no other run still uses it).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));

/** Runs a command; resolves with its exit code and output (never rejects). */
const run = (cmd, args, { timeout = 0, env = process.env } = {}) =>
  new Promise((resolve) => {
    execFile(cmd, args, { cwd: repo, timeout, env, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });

const lastLine = (text) => text.trim().split('\n').filter(Boolean).at(-1) ?? '';
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * An engine and the images, or the reason there are none. Resolves with
 * `{ ok, lines, reason?, startedDockerd }`; `lines` is what to print (engine, one line per image).
 */
export const prepareContainers = async (holderPid) => {
  const lines = [];
  const t0 = Date.now();
  const engine = await run(`${repo}infra/local/dockerd.sh`, ['acquire', String(holderPid)], { timeout: 600_000 });
  if (engine.code !== 0) return { ok: false, lines, reason: `no container engine: ${lastLine(engine.stderr) || `dockerd.sh exit ${engine.code}`}` };
  const startedDockerd = engine.stdout.trim() === 'started';
  const pid = startedDockerd ? (await run(`${repo}infra/local/dockerd.sh`, ['status'])).stdout.trim() : '';
  lines.push(`[containers] engine: ${startedDockerd ? `dockerd started by pubstream (pid ${pid})` : 'an engine was already answering'} (${seconds(t0)})`);
  const t1 = Date.now();
  const images = await run(`${repo}infra/images/build.sh`, [], { timeout: 1_800_000 });
  lines.push(...images.stdout.trim().split('\n').filter(Boolean));
  if (images.code !== 0) return { ok: false, lines, startedDockerd, reason: `image build failed: ${lastLine(images.stderr) || lastLine(images.stdout)}` };
  lines.push(`[containers] images ready (${seconds(t1)})`);
  return { ok: true, lines, startedDockerd, seconds: seconds(t0) };
};

const docker = async (...args) => (await run('docker', args, { timeout: 120_000 })).stdout.trim().split('\n').filter(Boolean);

const alive = (pid) => {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/**
 * Removes what this run, or any earlier one that died, left in the engine: containers whose owner
 * process (label org.pubstream.owner-pid) is gone, the compose project of this run, and unused
 * testcontainers networks and Pubstream volumes. Containers of live processes are never touched.
 * Returns the lines to print.
 */
export const removeLeftovers = async (runId) => {
  const leftovers = [];
  for (const line of await docker('ps', '-a', '--filter', 'label=org.pubstream.owner-pid', '--format', '{{.ID}} {{.Label "org.pubstream.owner-pid"}}')) {
    const [id, owner] = line.split(' ');
    if (!alive(owner)) leftovers.push(id);
  }
  const project = `pubstream-test-${runId}`.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
  leftovers.push(...(await docker('ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`)));
  if (leftovers.length > 0) await docker('rm', '-f', '-v', ...leftovers);
  for (const volume of await docker('volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${project}`)) await docker('volume', 'rm', volume);
  for (const network of await docker('network', 'ls', '-q', '--filter', `label=com.docker.compose.project=${project}`)) await docker('network', 'rm', network);
  await docker('network', 'prune', '-f', '--filter', 'label=org.testcontainers=true');
  for (const line of await docker('volume', 'ls', '--filter', 'label=org.pubstream.owner-pid', '--format', '{{.Name}} {{.Label "org.pubstream.owner-pid"}}')) {
    const [name, owner] = line.split(' ');
    if (!alive(owner)) await docker('volume', 'rm', name);
  }
  return [leftovers.length > 0 ? `[containers] cleanup: removed ${leftovers.length} container(s) left behind: ${leftovers.map((id) => id.slice(0, 12)).join(', ')}` : '[containers] cleanup: no container left behind'];
};

/** Unregisters this run; infra/local/dockerd.sh stops the dockerd it started once nobody uses it. */
export const releaseEngine = async (holderPid) => {
  const released = await run(`${repo}infra/local/dockerd.sh`, ['release', String(holderPid)], { timeout: 120_000 });
  return released.stderr.trim().split('\n').filter(Boolean).map((line) => line.replace(/^\[dockerd\.sh\] /, '[containers] '));
};
