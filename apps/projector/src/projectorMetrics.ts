import { registerScrapedTotal } from '@pubstream/observability';
import { Gauge, type Registry } from 'prom-client';
import { sampleCursors, type CursorSample, type CursorSampleSource } from './cursorSample.js';

const CURSORS = ['applied', 'published'] as const;
type Sampler = () => Promise<CursorSample | null>;

/** One cursor sample per scrape, shared by every series that needs it; null when it failed. */
const sharedSampler = (source: CursorSampleSource): Sampler => {
  let pending: Promise<CursorSample | null> | null = null;
  return () => {
    pending ??= sampleCursors(source)
      .catch(() => null)
      .finally(() => setTimeout(() => (pending = null), 100).unref());
    return pending;
  };
};

const perCursor = (registry: Registry, sample: Sampler, name: string, help: string, pick: (taken: CursorSample, cursor: (typeof CURSORS)[number]) => number): void => {
  new Gauge({
    name,
    help,
    labelNames: ['cursor'],
    registers: [registry],
    async collect() {
      this.reset();
      const taken = await sample();
      if (taken) for (const cursor of CURSORS) this.set({ cursor }, pick(taken, cursor));
    },
  });
};

const gauge = (registry: Registry, name: string, help: string, read: () => number | Promise<number | null>): void => {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const value = await read();
      if (value !== null) this.set(value);
    },
  });
};

/**
 * The projector's series on a Prometheus registry, read at scrape time (docs/projections.md,
 * watching a projector): whether it is the active one, where its two cursors stand and how far
 * behind the log's head, and how much it applied and published. The cursor sample is taken once
 * per scrape and shared by its series; when the log or the read model does not answer in time,
 * those series are left out of that scrape.
 */
export const registerProjectorMetrics = (registry: Registry, source: CursorSampleSource): void => {
  const sample = sharedSampler(source);
  gauge(registry, 'pubstream_projector_active', '1 while this projector holds the lease and applies, else 0', () => (source.snapshot().active ? 1 : 0));
  perCursor(registry, sample, 'pubstream_projector_position', 'Log position each cursor has reached (applied: in the read model; published: on the change stream)', (s, c) => s.cursors[c].position);
  perCursor(registry, sample, 'pubstream_projector_lag_positions', 'Log positions between the head and each cursor', (s, c) => s.cursors[c].lagPositions);
  perCursor(registry, sample, 'pubstream_projector_lag_seconds', 'Age of the oldest event each cursor has not reached, in seconds (0 when caught up)', (s, c) => s.cursors[c].lagSeconds);
  gauge(registry, 'pubstream_projector_head_position', 'Position of the last event in the log', async () => (await sample())?.head ?? null);
  gauge(registry, 'pubstream_projector_publish_retrying', '1 while publishing fails and is retried (change stream unreachable), else 0; reads stay fresh meanwhile', () =>
    source.snapshot().publisher === 'retrying' ? 1 : 0,
  );
  registerScrapedTotal(registry, 'pubstream_projector_events_applied_total', 'Events this projector applied to the read model since it started', () => source.snapshot().eventsApplied);
  registerScrapedTotal(registry, 'pubstream_projector_messages_published_total', 'Change messages this projector published since it started', () => source.snapshot().messagesPublished);
};
