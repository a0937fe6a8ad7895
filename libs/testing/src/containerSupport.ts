import { execFileSync } from 'node:child_process';
import { describe, inject } from 'vitest';
import type { ContainerLabels } from './containerBackends.js';

/** What a container test may need: an image (by role) or Debian's docker-compose. */
export type ContainerNeed = 'pubstream' | 'redis' | 'kafka' | 'compose';

/** What the global setup found out about containers, once per run (see globalSetup.ts). */
export interface ContainerSupport {
  /** Why no container can run here (no engine, or containers disabled); null when an engine answers. */
  unavailable: string | null;
  /** Images by role: PUBSTREAM_IMAGE, REDIS_IMAGE, KAFKA_IMAGE or the ones infra/images/build.sh tags. */
  images: Record<'pubstream' | 'redis' | 'kafka', string>;
  /** Those of `images` the engine does not have. */
  missingImages: string[];
  /** The docker-compose command (Debian's docker-compose 1.29), or null when there is none. */
  compose: string | null;
  /** Labels for every container a test starts, so the run can remove what an interrupted test left. */
  labels: ContainerLabels;
}

declare module 'vitest' {
  export interface ProvidedContext {
    containers: ContainerSupport;
  }
}

/** The docker-compose binary on PATH, if any. */
export const findCompose = (): string | null => {
  try {
    return execFileSync('sh', ['-c', 'command -v docker-compose'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
};

/** Why `needs` cannot be met, or null when they can. */
export const missingForContainers = (support: ContainerSupport, needs: readonly ContainerNeed[]): string | null => {
  if (support.unavailable) return support.unavailable;
  const images = needs.filter((need) => need !== 'compose').map((need) => support.images[need]);
  const missing = images.filter((image) => support.missingImages.includes(image));
  if (missing.length > 0) return `image(s) ${missing.join(', ')} not built (infra/images/build.sh)`;
  if (needs.includes('compose') && !support.compose) return 'no docker-compose (apt-get install docker-compose)';
  return null;
};

/**
 * A describe block that runs only where a container engine answers and has the images it needs.
 * Otherwise it prints one line with the reason and registers the suite as skipped, like
 * describeWithBackend. `npm test` provides the engine and the images (scripts/test.mjs).
 */
export const describeWithContainers = (title: string, needs: readonly ContainerNeed[], body: (support: ContainerSupport) => void): void => {
  const support = inject('containers');
  const reason = missingForContainers(support, needs);
  if (reason) console.log(`[skip] ${title}: containers unavailable (${reason})`);
  describe.skipIf(reason !== null)(reason ? `${title} (skipped: containers unavailable: ${reason})` : title, () => body(support));
};
