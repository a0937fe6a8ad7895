import type { Clock } from './clock.js';
import { NetworkError } from './errors.js';
import type { EventSourceConstructor, EventSourceLike, StreamEventLike } from './eventSourceResolver.js';
import { buildUrl } from './httpTransport.js';
import { planAfterFailure, planAfterReconnect, type ReconnectTiming } from './reconnectPlan.js';
import type { RetryPolicy } from './retryPolicy.js';
import { listenToStream, type StreamSink } from './streamListeners.js';
import type { StreamTuning } from './streamTuning.js';
import { createTimerSet, type Timer, type TimerSet } from './timerSet.js';
import type { ReconnectEvent } from './types.js';
import { isEmptyWatchedSet, normalizeWatchedSet, subscribeQuery, type WatchedSet, watchedSetKey } from './watchedSet.js';

/** Dependencies of {@link createLiveSubscription}. */
export interface LiveSubscriptionDeps extends StreamSink {
  baseUrl: string;
  apiKey: string;
  eventSource: () => Promise<EventSourceConstructor>;
  retry: RetryPolicy;
  clock: Clock;
  tuning: StreamTuning;
}

/** One `/subscribe` stream kept open for a changing watched set. */
export interface LiveSubscription {
  /** Sets what to watch; the stream is re-opened (debounced) when it differs from the open one. */
  watch(set: WatchedSet): void;
  /** The position of the last event received with an id (undefined before the first `ready`). */
  position(): number | undefined;
  /** Closes the stream and cancels every timer. */
  close(): void;
}

/** The state of one live subscription, shared by the functions below. */
interface Loop {
  readonly deps: LiveSubscriptionDeps;
  readonly timers: TimerSet;
  desired: WatchedSet;
  /** Key of the watched set of the open stream, '' when none is open. */
  openKey: string;
  source: EventSourceLike | undefined;
  /** Bumped whenever the stream is shut: events of older streams are ignored. */
  generation: number;
  /** Network failures since the last `connected`. */
  failures: number;
  /** Server cuts in a row (slow_consumer, resync_failed), until a stream lives to its `cycle`. */
  cuts: number;
  closed: boolean;
  /** The watched set the server refused (401/403/…): not retried until the set changes. */
  refusedKey: string | undefined;
  /** The last position received, and the watched set it belongs to: a stream for that set resumes from it. */
  resume: { readonly key: string; readonly position: number } | undefined;
  reopenTimer: Timer | undefined;
}

/**
 * Keeps ONE `/subscribe` stream open while anything is watched. Re-opens it on `reconnect` (at once
 * on a `cycle`, else after the server's `retryAfterMs`, backing off on repeated cuts), after
 * network loss (with exponential backoff and full jitter), when the watched set changes, and when a
 * stream outlives its announced `ttlMs` without a `reconnect` (a silently dead connection).
 */
export function createLiveSubscription(deps: LiveSubscriptionDeps): LiveSubscription {
  const loop: Loop = {
    deps,
    timers: createTimerSet(),
    desired: { collections: [], dataIds: [] },
    openKey: '',
    source: undefined,
    generation: 0,
    failures: 0,
    cuts: 0,
    closed: false,
    refusedKey: undefined,
    resume: undefined,
    reopenTimer: undefined,
  };
  return {
    watch(set) {
      if (loop.closed) return;
      loop.desired = normalizeWatchedSet(set);
      const key = watchedSetKey(loop.desired);
      // Another set: the position no longer covers what is watched (an item dropped meanwhile was forgotten).
      if (loop.resume && loop.resume.key !== key) loop.resume = undefined;
      if ((key === loop.openKey && loop.source) || key === loop.refusedKey) return;
      loop.refusedKey = undefined;
      scheduleOpen(loop, deps.tuning.debounceMs);
    },
    position: () => loop.resume?.position,
    close() {
      loop.closed = true;
      shut(loop);
      loop.timers.clear();
    },
  };
}

function scheduleOpen(loop: Loop, ms: number): void {
  loop.timers.cancel(loop.reopenTimer);
  loop.reopenTimer = loop.timers.later(ms, () => {
    loop.reopenTimer = undefined;
    void open(loop);
  });
}

function shut(loop: Loop): void {
  loop.generation += 1;
  loop.source?.close();
  loop.source = undefined;
  loop.openKey = '';
}

/** Replaces the open stream (if any) by one for the desired set, unless nothing is watched. */
async function open(loop: Loop): Promise<void> {
  shut(loop);
  if (loop.closed || isEmptyWatchedSet(loop.desired)) return;
  const { deps } = loop;
  const generation = loop.generation;
  const watched = loop.desired;
  let Ctor: EventSourceConstructor;
  try {
    Ctor = await deps.eventSource();
  } catch (cause) {
    deps.onError(new NetworkError('No EventSource implementation is available; pass one as the EventSource option', { cause }));
    return;
  }
  if (generation !== loop.generation || loop.closed) return;
  const key = watchedSetKey(watched);
  // Resume only the set the position belongs to: an added item needs its current value (a snapshot).
  const from = loop.resume?.key === key ? loop.resume.position : undefined;
  const es = new Ctor(buildUrl(deps.baseUrl, '/subscribe', { ...subscribeQuery(deps.apiKey, watched), from }));
  loop.source = es;
  loop.openKey = key;
  listenToStream(es, {
    sink: deps,
    watched,
    timers: loop.timers,
    tuning: deps.tuning,
    resuming: from !== undefined,
    onPosition: (position) => {
      if (generation === loop.generation) loop.resume = { key, position };
    },
    isCurrent: () => generation === loop.generation,
    onLive: () => {
      loop.failures = 0;
    },
    onStale: () => void open(loop),
    onReconnect: (payload) => afterReconnect(loop, watched, payload),
    onFailure: (event) => afterFailure(loop, watched, event),
  });
}

function reconnectTiming(deps: LiveSubscriptionDeps): ReconnectTiming {
  return { retry: deps.retry, debounceMs: deps.tuning.debounceMs, maxCutBackoffMs: deps.tuning.maxCutBackoffMs, random: deps.clock.random };
}

function afterReconnect(loop: Loop, watched: WatchedSet, payload: ReconnectEvent | undefined): void {
  const plan = planAfterReconnect(payload, loop.cuts, reconnectTiming(loop.deps));
  if (plan.action === 'refused') {
    loop.refusedKey = watchedSetKey(watched);
    shut(loop);
    loop.deps.onError(plan.error);
    return;
  }
  loop.cuts = plan.cuts;
  if (plan.action === 'now') {
    void open(loop);
    return;
  }
  shut(loop);
  scheduleOpen(loop, plan.delayMs);
}

function afterFailure(loop: Loop, watched: WatchedSet, event: StreamEventLike): void {
  const plan = planAfterFailure(event, loop.failures, reconnectTiming(loop.deps));
  shut(loop);
  if (plan.action === 'refused') {
    // Retrying a refused subscription cannot help; wait until the watched set changes.
    loop.refusedKey = watchedSetKey(watched);
    loop.deps.onError(plan.error);
    return;
  }
  loop.failures = plan.failures;
  loop.deps.onError(plan.error);
  scheduleOpen(loop, plan.delayMs);
}
