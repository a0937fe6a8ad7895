import { describe, inject } from 'vitest';

/** Backends a test may need; the global setup finds or starts each (see globalSetup.ts). */
export type BackendName = 'redis' | 'redisCluster' | 'kafka' | 'esdb';

export interface Backends {
  /** redis://127.0.0.1:PORT */
  redis?: string;
  /** Comma-separated redis:// URLs of the cluster's masters. */
  redisCluster?: string;
  /** host:port[,host:port] */
  kafka?: string;
  /** esdb:// connection string */
  esdb?: string;
  /** Why a backend is absent, for the one skip line its suites print. */
  skipped: Partial<Record<BackendName, string>>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    backends: Backends;
  }
}

/**
 * A describe block that runs only when the backend is available. When it is not, it prints one
 * line naming the backend and the reason, and registers the suite as skipped: never a fake pass.
 */
export const describeWithBackend = (name: BackendName, title: string, body: (url: string) => void): void => {
  const backends = inject('backends');
  const url = backends[name];
  const reason = backends.skipped[name] ?? 'not configured';
  if (!url) console.log(`[skip] ${title}: ${name} unavailable (${reason})`);
  // One registration either way: skipped (never a fake pass) with the reason in its title.
  describe.skipIf(!url)(url ? title : `${title} (skipped: ${name} unavailable: ${reason})`, () => body(url ?? ''));
};
