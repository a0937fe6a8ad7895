import type { Config } from '@pubstream/config';
import type { BackendErrorTally, Logger } from '@pubstream/observability';
import type { CleanupStack } from './cleanupStack.js';
import type { EmbeddedCore } from './embeddedCore.js';

/** Where the all-in-one's public API runs: in its own process, or in API workers (docs/architecture.md). */
export interface PublicApiHost {
  /** Processes serving the public API: 1 when it runs in this process. */
  readonly workers: number;
  /** Read-your-writes for the admin: true once every process serving the public API has applied `position`. */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
  /** Opens the public port (once the admin listens); resolves with its URL. */
  listen(): Promise<string>;
  /** Begins the drain of the public port (idempotent; nothing before listen); the rest closes through the cleanup stack. */
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
}

/** Prepares the public API (workers: forked and caught up with the log) without opening its port. */
export type PublicApiHostStarter = (deps: PublicApiHostDeps) => Promise<PublicApiHost>;
