import { ServiceUnavailableError } from '@pubstream/domain';

/**
 * One end of the IPC channel between the primary and an API worker (docs/architecture.md,
 * "API workers"): `process.send` in a worker, `worker.send` in the primary, an in-memory pair in tests.
 */
export interface IpcChannel {
  send(message: unknown): void;
  /** Listens to every message from the other end; returns the unsubscribe. */
  onMessage(listener: (message: unknown) => void): () => void;
}

/** The other end stopped (the worker exited, or the primary is gone): the call cannot be answered. */
export class IpcClosedError extends ServiceUnavailableError {
  constructor() {
    super('Service temporarily unavailable, try again shortly (the API process is restarting)');
  }
}

interface IpcCall {
  readonly id: number;
  readonly method: string;
  readonly args: readonly unknown[];
}
interface IpcReply {
  readonly id: number;
  readonly ok: boolean;
  readonly value?: unknown;
  readonly error?: string;
}
const CALLS = 'pubstream-ipc-calls';
const REPLIES = 'pubstream-ipc-replies';

const isKind = (message: unknown, kind: string): message is { kind: string; items: unknown[] } =>
  typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === kind && Array.isArray((message as { items?: unknown }).items);

/**
 * Collects items and sends them as one message per event-loop turn: a worker that answers 50
 * requests in one turn asks the primary once, not 50 times.
 */
const createBatcher = <T>(channel: IpcChannel, kind: string, onSendFailed: (items: readonly T[], error: unknown) => void) => {
  let items: T[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const batch = items;
    items = [];
    try {
      channel.send({ kind, items: batch });
    } catch (error) {
      onSendFailed(batch, error);
    }
  };
  return (item: T): void => {
    items.push(item);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
};

export interface IpcClient {
  /** Calls `method` at the other end; rejects with ServiceUnavailableError (503) after `timeoutMs`. */
  call<T>(method: string, args: readonly unknown[], options?: { readonly timeoutMs?: number }): Promise<T>;
  /** Rejects every pending call with IpcClosedError and every later one at once. */
  close(): void;
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly deadline: number;
}

/**
 * Calls to the other end, batched per turn, each bounded in time: one sweep timer (not a timer
 * per call, this is on every request's path) rejects calls past their deadline with a 503.
 */
export const createIpcClient = (channel: IpcChannel, options: { readonly timeoutMs: number; readonly now?: () => number }): IpcClient => {
  const now = options.now ?? Date.now;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;
  const settle = (id: number, outcome: (entry: Pending) => void): void => {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    outcome(entry);
  };
  const send = createBatcher<IpcCall>(channel, CALLS, (calls) => {
    for (const call of calls) settle(call.id, (entry) => entry.reject(new IpcClosedError()));
  });
  const unsubscribe = channel.onMessage((message) => {
    if (!isKind(message, REPLIES)) return;
    for (const reply of message.items as IpcReply[]) {
      settle(reply.id, (entry) => (reply.ok ? entry.resolve(reply.value) : entry.reject(new Error(reply.error ?? 'the other process failed the call'))));
    }
  });
  const sweep = setInterval(() => {
    const at = now();
    for (const [id, entry] of pending) {
      if (entry.deadline <= at) settle(id, () => entry.reject(new ServiceUnavailableError('Service temporarily unavailable, try again shortly (the API primary did not answer in time)')));
    }
  }, Math.max(5, Math.min(100, Math.floor(options.timeoutMs / 5))));
  sweep.unref();
  return {
    call<T>(method: string, args: readonly unknown[], callOptions: { readonly timeoutMs?: number } = {}): Promise<T> {
      if (closed) return Promise.reject(new IpcClosedError());
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, deadline: now() + (callOptions.timeoutMs ?? options.timeoutMs) });
        send({ id, method, args });
      });
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(sweep);
      unsubscribe();
      for (const id of [...pending.keys()]) settle(id, (entry) => entry.reject(new IpcClosedError()));
    },
  };
};

/** What one end answers: a method name to its implementation (arguments as sent). */
export type IpcHandlers = Readonly<Record<string, (...args: never[]) => unknown>>;

/** Answers the other end's calls with `handlers`, replies batched per turn; returns the stop. */
export const serveIpc = (channel: IpcChannel, handlers: IpcHandlers): (() => void) => {
  const reply = createBatcher<IpcReply>(channel, REPLIES, () => {
    // The other end is gone: its calls have been rejected there already.
  });
  const answer = async (call: IpcCall): Promise<void> => {
    const handler = Object.hasOwn(handlers, call.method) ? (handlers[call.method] as (...args: readonly unknown[]) => unknown) : undefined;
    try {
      if (!handler) throw new Error(`unknown IPC method ${call.method}`);
      reply({ id: call.id, ok: true, value: await handler(...call.args) });
    } catch (error) {
      reply({ id: call.id, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  };
  return channel.onMessage((message) => {
    if (!isKind(message, CALLS)) return;
    for (const call of message.items as IpcCall[]) void answer(call);
  });
};
