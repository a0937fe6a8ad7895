import type { ChangeMessage } from '@pubstream/change-stream';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { createMemoryStores } from '@pubstream/read-model';
import { afterEach } from 'vitest';
import { createProjector, type Projector } from '../projector.js';

// Shared by the projector's integration tests (SQLite in memory + memory stores).

/** The system under test wired on real adapters: SQLite (in memory) + memory stores. */
export const open = () => {
  const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'), { pollIntervalMs: 20 });
  return { eventStore, stores: createMemoryStores() };
};

/** Forwards to `target`, with some methods replaced. */
export const withOverrides = <T extends object>(target: T, overrides: Partial<T>): T =>
  new Proxy(target, {
    get(t, property, receiver) {
      if (property in overrides) return overrides[property as keyof T];
      const value: unknown = Reflect.get(t, property, receiver);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });

export const entityVersions = (messages: readonly ChangeMessage[]): string[] =>
  messages.map((m) => `${m.kind}:${m.kind === 'item' ? m.dataId : m.kind === 'collection' ? m.slug : m.kind === 'key' ? m.keyId : 'plan'}:${m.action}@${m.version}`);

/** Every committed version of writeHistory's entities, in log order. */
export const EVERY_VERSION = [
  'collection:news:update@0',
  'item:a1:update@0',
  'item:a2:update@0',
  'item:a1:update@1',
  'item:a3:update@0',
  'item:a3:delete@1',
  'collection:news:update@1',
  'key:k1:update@0',
  'key:k1:update@1',
  'key:k2:update@0',
  'key:k2:delete@1',
  'collection:tmp:update@0',
  'item:t1:update@0',
  'item:t1:delete@1',
  'collection:tmp:delete@1',
  'plan:plan:update@0',
];

/** Starts projectors for one test file and stops them all after each test. */
export const projectorRunner = (): ((...args: Parameters<typeof createProjector>) => Projector) => {
  const running: Projector[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
  });
  return (...args) => {
    const projector = createProjector(...args);
    running.push(projector);
    projector.start();
    return projector;
  };
};

export const waitUntil = async (condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

