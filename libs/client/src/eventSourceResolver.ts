/** The part of the WHATWG `EventSource` the client uses; the browser's and the `eventsource` package's both fit. */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: StreamEventLike) => void): void;
  close(): void;
}

/** What a stream listener reads from an event: `data` of a message, `code`/`message` of an error (Node). */
export interface StreamEventLike {
  data?: unknown;
  /** The event's `id` (the stream position of a change or of `ready`); empty when it carried none. */
  lastEventId?: string | undefined;
  code?: number | undefined;
  message?: string | undefined;
}

/** A constructor of {@link EventSourceLike}, e.g. `globalThis.EventSource` or `EventSource` from `eventsource`. */
export type EventSourceConstructor = new (url: string) => EventSourceLike;

/**
 * The EventSource to use: the injected one, else the global one (browsers, Deno, Node ≥ 22 with the flag),
 * else the `eventsource` package, loaded only then so browsers never need it.
 */
export async function resolveEventSource(injected?: EventSourceConstructor): Promise<EventSourceConstructor> {
  if (injected) return injected;
  const global = (globalThis as { EventSource?: EventSourceConstructor }).EventSource;
  if (global) return global;
  const module = await import('eventsource');
  return module.EventSource as unknown as EventSourceConstructor;
}
