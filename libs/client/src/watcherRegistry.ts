import { BadRequestError } from './errors.js';

/** Unsubscribes a watcher; calling it twice is harmless. */
export type Unsubscribe = () => void;

/** The listeners of one kind of watched thing (items or collections), by key. */
export interface WatcherRegistry<V> {
  /** Adds a listener; it hears the known value (if any) in a microtask, then every change. */
  add(key: string, listener: (value: V) => void): Unsubscribe;
  has(key: string): boolean;
  keys(): string[];
  /** Calls every listener of `key`; a listener that throws does not stop the others. */
  notify(key: string, value: V): void;
  clear(): void;
}

/** Options of {@link createWatcherRegistry}. */
export interface WatcherRegistryOptions<V> {
  /** Most keys watched at once; one more is 400. */
  limit: number;
  /** Plural name of the keys in the error message (`dataIds`). */
  what: string;
  /** The value known for a key, if any. */
  current: (key: string) => V | undefined;
  /** Drops what is known about a key nobody watches any more. */
  forget: (key: string) => void;
  /** The set of keys changed (the stream must follow). */
  onKeysChanged: () => void;
}

/** Creates an empty {@link WatcherRegistry}. */
export function createWatcherRegistry<V>(options: WatcherRegistryOptions<V>): WatcherRegistry<V> {
  const listeners = new Map<string, Set<(value: V) => void>>();
  return {
    add(key, listener) {
      let set = listeners.get(key);
      if (!set) {
        if (listeners.size >= options.limit) throw new BadRequestError(400, 'Bad Request', `At most ${options.limit} ${options.what} can be watched at once`);
        set = new Set();
        listeners.set(key, set);
        options.onKeysChanged();
      }
      set.add(listener);
      const known = options.current(key);
      const added = set;
      if (known !== undefined) queueMicrotask(() => added.has(listener) && listener(known));
      return unsubscribeOnce(() => {
        added.delete(listener);
        if (added.size > 0 || listeners.get(key) !== added) return;
        listeners.delete(key);
        options.forget(key);
        options.onKeysChanged();
      });
    },
    has: (key) => listeners.has(key),
    keys: () => [...listeners.keys()],
    notify: (key, value) => notifyAll(listeners.get(key), value),
    clear: () => listeners.clear(),
  };
}

function unsubscribeOnce(unsubscribe: () => void): Unsubscribe {
  let active = true;
  return () => {
    if (!active) return;
    active = false;
    unsubscribe();
  };
}

function notifyAll<V>(listeners: Set<(value: V) => void> | undefined, value: V): void {
  for (const listener of [...(listeners ?? [])]) {
    try {
      listener(value);
    } catch (error) {
      // A failing listener must not stop the others nor the stream.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
