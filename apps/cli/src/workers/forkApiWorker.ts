import cluster, { type Worker } from 'node:cluster';
import { workerChannel } from './ipcChannels.js';
import type { IpcChannel } from './workerIpc.js';
import { isWorkerListening, isWorkerMessage, WORKER_LISTEN, WORKER_READY } from './workerMessages.js';

/** What the primary attaches to one worker's channel when it forks it (its IPC services); returns their teardown, run when it exits. */
export type AttachWorker = (worker: { readonly id: number; readonly channel: IpcChannel }) => () => void;

export interface ForkedWorker {
  readonly worker: Worker;
  /** Resolves once the worker has caught up with the log; rejects if it exits first. */
  readonly ready: Promise<void>;
  /** Resolves with the shared URL once it listens; rejects if it exits first. */
  readonly listening: Promise<string>;
  /** Asks it to listen (at once, or as soon as it is ready). */
  listen(): void;
}

/** Sends when the channel is still open: a worker that is gone needs no message. */
export const sendToWorker = (worker: Worker, message: object): void => {
  if (worker.isConnected()) worker.send(message);
};

/** Forks one API worker (this same command again, docs/architecture.md "API workers") with `attach`ed services; detached when it exits. */
export const forkApiWorker = (attach: AttachWorker): ForkedWorker => {
  const worker = cluster.fork();
  const detach = attach({ id: worker.id, channel: workerChannel(worker) });
  let isReady = false;
  let listenAsked = false;
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: unknown) => {
      if (!isWorkerMessage(message, WORKER_READY)) return;
      isReady = true;
      if (listenAsked) sendToWorker(worker, WORKER_LISTEN);
      resolve();
    });
    worker.once('exit', (code, signal) => reject(new Error(`API worker ${worker.id} exited before it was ready (code ${code}, signal ${signal ?? 'none'})`)));
  });
  const listening = new Promise<string>((resolve, reject) => {
    worker.on('message', (message: unknown) => isWorkerListening(message) && resolve(message.url));
    worker.once('exit', () => reject(new Error(`API worker ${worker.id} exited before it listened`)));
  });
  // Awaited only by some callers; an exit is reported through the worker's 'exit' event as well.
  ready.catch(() => {});
  listening.catch(() => {});
  worker.once('exit', detach);
  return {
    worker,
    ready,
    listening,
    listen() {
      listenAsked = true;
      if (isReady) sendToWorker(worker, WORKER_LISTEN);
    },
  };
};
