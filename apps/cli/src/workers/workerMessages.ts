/** How long a worker's call to the primary (rate limit, stream slot, usage) may take before it answers 503. */
export const WORKER_CALL_TIMEOUT_MS = 1_000;

/** The primary's request that a worker drain and exit (SIGTERM to the primary, docs/operations.md). */
export const WORKER_STOP = { kind: 'pubstream-worker-stop' } as const;

/** A worker's word that it listens on the shared public port. */
export interface WorkerListening {
  readonly kind: 'pubstream-worker-listening';
  readonly url: string;
}

export const isWorkerStop = (message: unknown): boolean =>
  typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === WORKER_STOP.kind;

export const isWorkerListening = (message: unknown): message is WorkerListening =>
  typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === 'pubstream-worker-listening' && typeof (message as { url?: unknown }).url === 'string';
