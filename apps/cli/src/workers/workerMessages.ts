/** How long a worker's call to the primary (rate limit, stream slot, usage) may take before it answers 503. */
export const WORKER_CALL_TIMEOUT_MS = 1_000;

/**
 * The start of a worker (docs/architecture.md, "API workers"). It is forked first thing, so that it
 * loads its code while the primary replays the log; it says `booted` once it hears messages; the
 * primary says `open` once its own log and stores are open; the worker says `ready` once its read
 * model has caught up with the log; the primary says `listen` once the admin listens (so that a
 * client that finds the public port up finds the admin up too); the worker says `listening` with
 * the shared URL. `stop` asks it to drain and exit.
 */
export const WORKER_BOOTED = { kind: 'pubstream-worker-booted' } as const;
export const WORKER_OPEN = { kind: 'pubstream-worker-open' } as const;
export const WORKER_READY = { kind: 'pubstream-worker-ready' } as const;
export const WORKER_LISTEN = { kind: 'pubstream-worker-listen' } as const;
export const WORKER_STOP = { kind: 'pubstream-worker-stop' } as const;

export interface WorkerListening {
  readonly kind: 'pubstream-worker-listening';
  readonly url: string;
}

const kindOf = (message: unknown): unknown => (typeof message === 'object' && message !== null ? (message as { kind?: unknown }).kind : undefined);

export const isWorkerMessage = (message: unknown, expected: { readonly kind: string }): boolean => kindOf(message) === expected.kind;

export const isWorkerListening = (message: unknown): message is WorkerListening =>
  kindOf(message) === 'pubstream-worker-listening' && typeof (message as { url?: unknown }).url === 'string';
