import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@pubstream/observability';
import { workerChannel } from './ipcChannels.js';
import type { IpcChannel } from './workerIpc.js';
import { isWorkerListening, WORKER_STOP } from './workerMessages.js';

/** What the primary attaches to one worker's channel when it forks it (its IPC services); returns their teardown, run when it exits. */
export type AttachWorker = (worker: { readonly id: number; readonly channel: IpcChannel }) => () => void;

export interface ApiWorkers {
  /** The public URL the workers share. */
  readonly url: string;
  readonly count: number;
  /** Tells every worker to drain and waits for them to exit, at most `graceMs` (then kills them). Idempotent. */
  stop(graceMs: number): Promise<void>;
}

interface Running {
  readonly worker: Worker;
  readonly detach: () => void;
}

/** A worker that dies is replaced after this pause, so that a crash loop does not spin a core. */
const RESTART_DELAY_MS = 1_000;

/**
 * Forks `count` API workers with node:cluster (docs/architecture.md, "API workers"): they share the
 * public port (the primary hands connections out round robin) and each calls back over IPC for
 * what must stay exact. A worker that dies is logged and replaced; one that dies before it first
 * listened fails the start. Resolves once every worker listens.
 */
export const startApiWorkers = async (options: { readonly count: number; readonly logger: Logger; readonly attach: AttachWorker }): Promise<ApiWorkers> => {
  const { logger } = options;
  const running = new Map<number, Running>();
  let stopping = false;
  let stopped: Promise<void> | null = null;

  const fork = (): Promise<string> => {
    const worker = cluster.fork();
    const entry: Running = { worker, detach: options.attach({ id: worker.id, channel: workerChannel(worker) }) };
    running.set(worker.id, entry);
    return new Promise<string>((resolve, reject) => {
      let listening = false;
      worker.on('message', (message: unknown) => {
        if (!isWorkerListening(message)) return;
        listening = true;
        resolve(message.url);
      });
      worker.on('exit', (code, signal) => {
        running.delete(worker.id);
        entry.detach();
        if (!listening) reject(new Error(`API worker ${worker.id} exited before it listened (code ${code}, signal ${signal ?? 'none'})`));
        if (stopping) return;
        logger.warn({ worker: worker.id, pid: worker.process.pid, code, signal }, `API worker exited; starting a new one in ${RESTART_DELAY_MS} ms`);
        setTimeout(() => {
          if (!stopping) fork().then((url) => logger.info({ url }, 'API worker replaced'), (error: unknown) => logger.error({ err: error }, 'a replacement API worker failed to start'));
        }, RESTART_DELAY_MS).unref();
      });
    });
  };

  const stop = (graceMs: number): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      const exits = [...running.values()].map(({ worker }) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))));
      for (const { worker } of running.values()) if (worker.isConnected()) worker.send(WORKER_STOP);
      const timer = setTimeout(() => {
        for (const { worker } of running.values()) worker.process.kill('SIGKILL');
      }, graceMs);
      await Promise.all(exits);
      clearTimeout(timer);
    })());

  try {
    const urls = await Promise.all(Array.from({ length: options.count }, fork));
    return { url: urls[0] ?? '', count: options.count, stop };
  } catch (error) {
    await stop(0);
    throw error;
  }
};
