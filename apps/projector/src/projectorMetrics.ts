import { Counter, Gauge, type Registry } from 'prom-client';
import { sampleCursors, type CursorSample, type CursorSampleSource } from './cursorSample.js';

const CURSORS = ['applied', 'published'] as const;

/**
 * The projector's series on a Prometheus registry, read at scrape time (docs/projections.md,
 * watching a projector): whether it is the active one, where its two cursors stand and how far
 * behind the log's head, and how much it applied and published. The cursor sample is taken once
 * per scrape and shared by its series; when the log or the read model does not answer in time,
 * those series are left out of that scrape.
 */
export const registerProjectorMetrics = (registry: Registry, source: CursorSampleSource): void => {
  let pending: Promise<CursorSample | null> | null = null;
  const sample = (): Promise<CursorSample | null> => {
    pending ??= sampleCursors(source)
      .catch(() => null)
      .finally(() => setTimeout(() => (pending = null), 100).unref());
    return pending;
  };
  const perCursor = (name: string, help: string, pick: (sample: CursorSample, cursor: (typeof CURSORS)[number]) => number): void => {
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
  new Gauge({
    name: 'pubstream_projector_active',
    help: '1 while this projector holds the lease and applies, else 0',
    registers: [registry],
    collect() {
      this.set(source.snapshot().active ? 1 : 0);
    },
  });
  perCursor('pubstream_projector_position', 'Log position each cursor has reached (applied: in the read model; published: on the change stream)', (s, c) => s.cursors[c].position);
  perCursor('pubstream_projector_lag_positions', 'Log positions between the head and each cursor', (s, c) => s.cursors[c].lagPositions);
  perCursor('pubstream_projector_lag_seconds', 'Age of the oldest event each cursor has not reached, in seconds (0 when caught up)', (s, c) => s.cursors[c].lagSeconds);
  new Gauge({
    name: 'pubstream_projector_head_position',
    help: 'Position of the last event in the log',
    registers: [registry],
    async collect() {
      const taken = await sample();
      if (taken) this.set(taken.head);
    },
  });
  new Gauge({
    name: 'pubstream_projector_publish_retrying',
    help: '1 while publishing fails and is retried (change stream unreachable), else 0; reads stay fresh meanwhile',
    registers: [registry],
    collect() {
      this.set(source.snapshot().publisher === 'retrying' ? 1 : 0);
    },
  });
  const total = (name: string, help: string, read: () => number): void => {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  };
  total('pubstream_projector_events_applied_total', 'Events this projector applied to the read model since it started', () => source.snapshot().eventsApplied);
  total('pubstream_projector_messages_published_total', 'Change messages this projector published since it started', () => source.snapshot().messagesPublished);
};
