import cluster, { type Worker } from 'node:cluster';
import { workerChannel } from './ipcChannels.js';
import type { IpcChannel } from './workerIpc.js';
import { isWorkerListening, isWorkerMessage, WORKER_BOOTED, WORKER_LISTEN, WORKER_OPEN, WORKER_READY } from './workerMessages.js';

/** What the primary attaches to one worker's channel (its IPC services); returns their teardown, run when it exits. */
export type AttachWorker = (worker: { readonly id: number; readonly channel: IpcChannel }) => () => void;

export interface ForkedWorker {
  readonly worker: Worker;
  /** Resolves once the worker has caught up with the log; rejects if it exits first. */
  readonly ready: Promise<void>;
  /** Resolves with the shared URL once it listens; rejects if it exits first. */
  readonly listening: Promise<string>;
  /** Attaches the primary's services to its channel (once), then lets it open the log (at once, or once booted). */
  open(attach: AttachWorker): void;
  /** Lets it listen (at once, or as soon as it is ready). */
  listen(): void;
}

/** Sends when the channel is still open: a worker that is gone needs no message. */
export const sendToWorker = (worker: Worker, message: object): void => {
  if (worker.isConnected()) worker.send(message);
};

/** Sends `message` once `happened` has been heard from the worker and `ask()` was called, whichever is last. */
const whenBoth = (worker: Worker, happened: { readonly kind: string }, message: object, onHeard?: () => void) => {
  let heard = false;
  let asked = false;
  worker.on('message', (received: unknown) => {
    if (!isWorkerMessage(received, happened)) return;
    heard = true;
    onHeard?.();
    if (asked) sendToWorker(worker, message);
  });
  return () => {
    if (asked) return;
    asked = true;
    if (heard) sendToWorker(worker, message);
  };
};

/** Forks one API worker: this same command again (docs/architecture.md, "API workers"). */
export const forkApiWorker = (): ForkedWorker => {
  const worker = cluster.fork();
  const exited = (what: string) => new Promise<never>((_, reject) => worker.once('exit', (code, signal) => reject(new Error(`API worker ${worker.id} exited before it ${what} (code ${code}, signal ${signal ?? 'none'})`))));
  let markReady: () => void = () => {};
  const ready = Promise.race([new Promise<void>((resolve) => (markReady = resolve)), exited('was ready')]);
  const askOpen = whenBoth(worker, WORKER_BOOTED, WORKER_OPEN);
  const askListen = whenBoth(worker, WORKER_READY, WORKER_LISTEN, () => markReady());
  const listening = Promise.race([new Promise<string>((resolve) => worker.on('message', (message: unknown) => isWorkerListening(message) && resolve(message.url))), exited('listened')]);
  // Awaited only by some callers; an exit is reported through the worker's 'exit' event as well.
  ready.catch(() => {});
  listening.catch(() => {});
  let attached = false;
  return {
    worker,
    ready,
    listening,
    open(attach) {
      if (attached || worker.isDead()) return;
      attached = true;
      worker.once('exit', attach({ id: worker.id, channel: workerChannel(worker) }));
      askOpen();
    },
    listen: askListen,
  };
};
