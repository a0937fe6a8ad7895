import type { Worker } from 'node:cluster';
import type { Logger } from '@pubstream/observability';
import { forkApiWorker, sendToWorker, type AttachWorker, type ForkedWorker } from './forkApiWorker.js';
import { WORKER_STOP } from './workerMessages.js';

export type { AttachWorker } from './forkApiWorker.js';

export interface ApiWorkers {
  readonly count: number;
  /** Lets every worker listen on the shared port; resolves with its URL once all do. Later replacements listen once ready. */
  listen(): Promise<string>;
  /** Tells every worker to drain and waits for them to exit, at most `graceMs` (then kills them). Idempotent. */
  stop(graceMs: number): Promise<void>;
}

/** A worker that dies is replaced after this pause, so that a crash loop does not spin a core. */
const RESTART_DELAY_MS = 1_000;

/** Asks each worker to drain and exit; SIGKILL for those still there after `graceMs`. */
const stopWorkers = async (workers: readonly Worker[], graceMs: number): Promise<void> => {
  const exits = workers.map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))));
  for (const worker of workers) sendToWorker(worker, WORKER_STOP);
  const timer = setTimeout(() => {
    for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
  }, graceMs);
  await Promise.all(exits);
  clearTimeout(timer);
};

/**
 * Forks `count` API workers with node:cluster (docs/architecture.md, "API workers"): they share the
 * public port (the primary hands connections out round robin) and each calls back over IPC for
 * what must stay exact. Resolves once every worker is ready (caught up with the log). A worker
 * that dies is logged and replaced; one that dies before it was ready fails the start.
 */
export const startApiWorkers = async (options: { readonly count: number; readonly logger: Logger; readonly attach: AttachWorker }): Promise<ApiWorkers> => {
  const { logger } = options;
  const running = new Map<number, ForkedWorker>();
  let listenAsked = false;
  let stopping = false;
  let stopped: Promise<void> | null = null;

  const fork = (): Promise<void> => {
    const forked = forkApiWorker(options.attach);
    const { worker } = forked;
    running.set(worker.id, forked);
    if (listenAsked) forked.listen();
    worker.once('exit', (code, signal) => {
      running.delete(worker.id);
      if (stopping) return;
      logger.warn({ worker: worker.id, pid: worker.process.pid, code, signal }, `API worker exited; starting a new one in ${RESTART_DELAY_MS} ms`);
      setTimeout(replace, RESTART_DELAY_MS).unref();
    });
    return forked.ready;
  };
  const replace = (): void => {
    if (stopping) return;
    fork().then(
      () => logger.info('API worker replaced'),
      (error: unknown) => logger.error({ err: error }, 'a replacement API worker failed to start'),
    );
  };
  const stop = (graceMs: number): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      await stopWorkers([...running.values()].map((forked) => forked.worker), graceMs);
    })());

  try {
    await Promise.all(Array.from({ length: options.count }, fork));
  } catch (error) {
    await stop(0);
    throw error;
  }
  return {
    count: options.count,
    async listen() {
      listenAsked = true;
      const workers = [...running.values()];
      for (const forked of workers) forked.listen();
      const urls = await Promise.all(workers.map((forked) => forked.listening));
      return urls[0] ?? '';
    },
    stop,
  };
};
