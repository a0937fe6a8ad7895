import type { PageRead } from './collectionPageReader.js';
import type { HubLogger } from './hubLogger.js';

export interface PageRecomputerOptions {
  /** Issues page reads (shares one in flight); `seq` is the last read issued. */
  readonly pages: { readonly seq: number; read(slug: string, notBefore: number): Promise<PageRead> };
  /** Whether any stream still follows the collection. */
  followed(slug: string): boolean;
  /** Hands a recomputed page to the collection's streams. */
  deliver(page: PageRead): void;
  /** Pages are recomputed at most once per collection per window. */
  readonly coalesceMs: number;
  /** A recompute that failed (read model down) is retried this much later. Default 1 s. */
  readonly retryAfterFailureMs?: number;
  readonly logger?: HubLogger;
}

interface Recompute {
  /** Recompute needed with a read issued after this seq. */
  dirtyAfter: number | null;
  timer: NodeJS.Timeout | null;
  running: boolean;
}

/**
 * Recomputes page 1 of a changed collection for all its streams, once per coalescing window
 * (docs/subscriptions.md, "Fanout"), whatever the number of writes in the burst. Changes marked
 * while a read runs are covered by the next one; a failed read is retried after a pause.
 */
export class PageRecomputer {
  private readonly collections = new Map<string, Recompute>();

  constructor(private readonly options: PageRecomputerOptions) {}

  /** A change in the collection was published: recompute its page at the end of the window. */
  markDirty(slug: string): void {
    if (!this.options.followed(slug)) return;
    let state = this.collections.get(slug);
    if (!state) this.collections.set(slug, (state = { dirtyAfter: null, timer: null, running: false }));
    // The newest mark wins: a read issued after it covers this change and every earlier one (a
    // page read already in flight was issued before this change was durable, so it cannot).
    state.dirtyAfter = this.options.pages.seq;
    this.schedule(slug, state, this.options.coalesceMs);
  }

  /** No stream follows the collection any more: drop its pending recompute. */
  forget(slug: string): void {
    const state = this.collections.get(slug);
    if (state?.timer) clearTimeout(state.timer);
    this.collections.delete(slug);
  }

  /** Stops every pending recompute. */
  close(): void {
    for (const state of this.collections.values()) if (state.timer) clearTimeout(state.timer);
  }

  private schedule(slug: string, state: Recompute, delayMs: number): void {
    if (state.timer || state.running) return;
    state.timer = setTimeout(() => void this.recompute(slug), delayMs);
    state.timer.unref();
  }

  private async recompute(slug: string): Promise<void> {
    const state = this.collections.get(slug);
    if (!state || state.dirtyAfter === null) return;
    state.timer = null;
    state.running = true;
    const after = state.dirtyAfter;
    state.dirtyAfter = null;
    let failed = false;
    try {
      this.options.deliver(await this.options.pages.read(slug, after));
    } catch (error) {
      this.options.logger?.warn({ err: error, slug }, 'collection page recompute failed; retrying');
      failed = true;
      state.dirtyAfter ??= after;
    } finally {
      state.running = false;
    }
    if (state.dirtyAfter === null || this.collections.get(slug) !== state) return;
    this.schedule(slug, state, failed ? (this.options.retryAfterFailureMs ?? 1_000) : this.options.coalesceMs);
  }
}
