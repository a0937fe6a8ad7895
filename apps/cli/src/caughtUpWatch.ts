import type { Projector } from '@pubstream/projector';
import type { ProjectionStore } from '@pubstream/read-model';

const WATCH_EVERY_MS = 250;

/**
 * Keeps the read model's caught-up marker (docs/read-models.md, "Unknown is not missing"): at start
 * and every `intervalMs`, when the projector reports that it has applied the log up to its head, it asks the
 * store to mark itself caught up at that head. The store refuses unless its own checkpoint has
 * reached it, so a projector that has not yet noticed that Redis lost its data cannot mark the
 * empty store; once its replay is done, the next tick marks it. Returns what stops the watch.
 */
export const watchCaughtUp = (
  projector: Pick<Projector, 'status'>,
  store: Pick<ProjectionStore, 'markCaughtUp'>,
  options: { readonly intervalMs?: number; readonly onError?: (error: unknown) => void } = {},
): (() => Promise<void>) => {
  let busy = false;
  const tick = async (): Promise<void> => {
    const status = await projector.status();
    if (status.applied >= status.head) await store.markCaughtUp({ projection: status.name, position: status.head });
  };
  const run = (): void => {
    if (busy) return;
    busy = true;
    tick()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        busy = false;
      });
  };
  // At once too: a projector that starts on a caught-up read model marks it without waiting.
  run();
  const timer = setInterval(run, options.intervalMs ?? WATCH_EVERY_MS);
  timer.unref();
  return async () => clearInterval(timer);
};
