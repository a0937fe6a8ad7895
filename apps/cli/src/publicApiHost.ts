import type { Config } from '@pubstream/config';
import type { BackendErrorTally, Logger } from '@pubstream/observability';
import type { CleanupStack } from './cleanupStack.js';
import type { EmbeddedCore } from './embeddedCore.js';

/** Where the all-in-one's public API runs: in its own process, or in API workers (docs/architecture.md). */
export interface PublicApiHost {
  readonly url: string;
  /** Processes serving the public API: 1 when it runs in this process. */
  readonly workers: number;
  /** Read-your-writes for the admin: true once every process serving the public API has applied `position`. */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
  /** Begins the drain of the public port (idempotent); the rest closes through the cleanup stack. */
  drain(): Promise<void>;
}

export interface PublicApiHostDeps {
  readonly config: Config;
  readonly core: EmbeddedCore;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly backendErrors: BackendErrorTally;
  /** Where the host registers what must close on stop (run in reverse order). */
  readonly cleanups: CleanupStack;
  /**
   * The host's read-your-writes, handed over as soon as it has one (workers: at fork, before they
   * listen), so that admin writes made while it starts wait for it too.
   */
  readonly useWaiter: (waiter: Pick<PublicApiHost, 'waitFor'>) => void;
}

export type PublicApiHostStarter = (deps: PublicApiHostDeps) => Promise<PublicApiHost>;
