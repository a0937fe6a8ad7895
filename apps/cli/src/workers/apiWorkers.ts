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

/** Workers forked ahead (they load their code meanwhile), waiting for the primary's services. */
export interface ApiWorkerPool {
  /** Attaches the services to every worker and lets it open the log; resolves once all are ready. */
  open(attach: AttachWorker): Promise<ApiWorkers>;
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

/** Lets each worker listen; the URL they share once all do. */
const listenAll = async (workers: readonly ForkedWorker[]): Promise<string> => {
  for (const forked of workers) forked.listen();
  const urls = await Promise.all(workers.map((forked) => forked.listening));
  return urls[0] ?? '';
};

/**
 * Forks `count` API workers with node:cluster at once (docs/architecture.md, "API workers"): they
 * share the public port (the primary hands connections out round robin) and call back over IPC for
 * what must stay exact. A worker that dies after the pool was opened is logged and replaced; one
 * that dies before it was ready fails the start.
 */
export const forkApiWorkers = (options: { readonly count: number; readonly logger: Logger }): ApiWorkerPool => {
  const { logger } = options;
  const running = new Map<number, ForkedWorker>();
  let attach: AttachWorker | null = null;
  let listenAsked = false;
  let stopping = false;
  let stopped: Promise<void> | null = null;

  const fork = (): ForkedWorker => {
    const forked = forkApiWorker();
    const { worker } = forked;
    running.set(worker.id, forked);
    if (attach) forked.open(attach);
    if (listenAsked) forked.listen();
    worker.once('exit', (code, signal) => {
      running.delete(worker.id);
      if (stopping || !attach) return;
      logger.warn({ worker: worker.id, pid: worker.process.pid, code, signal }, `API worker exited; starting a new one in ${RESTART_DELAY_MS} ms`);
      setTimeout(replace, RESTART_DELAY_MS).unref();
    });
    return forked;
  };
  const replace = (): void => {
    if (stopping) return;
    fork().ready.then(
      () => logger.info('API worker replaced'),
      (error: unknown) => logger.error({ err: error }, 'a replacement API worker failed to start'),
    );
  };
  const stop = (graceMs: number): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      await stopWorkers([...running.values()].map((forked) => forked.worker), graceMs);
    })());
  const workers: ApiWorkers = {
    count: options.count,
    listen() {
      listenAsked = true;
      return listenAll([...running.values()]);
    },
    stop,
  };

  for (let i = 0; i < options.count; i++) fork();
  return {
    async open(services) {
      attach = services;
      const all = [...running.values()];
      for (const forked of all) forked.open(services);
      try {
        await Promise.all(all.map((forked) => forked.ready));
      } catch (error) {
        await stop(0);
        throw error;
      }
      return workers;
    },
    stop,
  };
};
