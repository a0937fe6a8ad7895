import type { Worker } from 'node:cluster';
import type { IpcChannel } from './workerIpc.js';

/** A worker's channel to its primary (`process.send`); sending after the primary is gone throws. */
export const primaryChannel = (): IpcChannel => ({
  send(message) {
    if (!process.send || !process.connected) throw new Error('the IPC channel to the primary is closed');
    process.send(message);
  },
  onMessage(listener) {
    process.on('message', listener);
    return () => void process.off('message', listener);
  },
});

/** The primary's channel to one worker. */
export const workerChannel = (worker: Worker): IpcChannel => ({
  send(message) {
    if (!worker.isConnected()) throw new Error(`the IPC channel to API worker ${worker.id} is closed`);
    worker.send(message as never);
  },
  onMessage(listener) {
    worker.on('message', listener);
    return () => void worker.off('message', listener);
  },
});
