import { describe, expect, it, vi } from 'vitest';
import { BadRequestError } from './errors.js';
import { createWatcherRegistry, type WatcherRegistryOptions } from './watcherRegistry.js';

function registry(known: Record<string, number> = {}, limit = 2) {
  const changes: string[][] = [];
  const forgotten: string[] = [];
  const options: WatcherRegistryOptions<number> = {
    limit,
    what: 'dataIds',
    current: (key) => known[key],
    forget: (key) => forgotten.push(key),
    onKeysChanged: () => changes.push(watchers.keys()),
  };
  const watchers = createWatcherRegistry(options);
  return { watchers, changes, forgotten };
}

describe('createWatcherRegistry', () => {
  it('given a new key, then the keys change once; a second listener on it changes nothing', () => {
    const { watchers, changes } = registry();
    watchers.add('a', () => {});
    watchers.add('a', () => {});
    expect(changes).toEqual([['a']]);
    expect(watchers.has('a')).toBe(true);
  });

  it('given a known value, then a new listener hears it in a microtask, unless it left first', async () => {
    const { watchers } = registry({ a: 7 });
    const heard: number[] = [];
    const left: number[] = [];
    watchers.add('a', (v) => heard.push(v));
    const stop = watchers.add('a', (v) => left.push(v));
    stop();
    expect(heard).toEqual([]);
    await Promise.resolve();
    expect(heard).toEqual([7]);
    expect(left).toEqual([]);
  });

  it('given the last listener of a key leaves, then the key is forgotten and the keys change; a second call is harmless', () => {
    const { watchers, changes, forgotten } = registry();
    const stopA = watchers.add('a', () => {});
    const stopA2 = watchers.add('a', () => {});
    stopA();
    expect(forgotten).toEqual([]);
    stopA2();
    stopA2();
    expect(forgotten).toEqual(['a']);
    expect(changes).toEqual([['a'], []]);
    expect(watchers.has('a')).toBe(false);
  });

  it('given the limit reached, then one more key is a 400 and nothing changes', () => {
    const { watchers, changes } = registry({}, 2);
    watchers.add('a', () => {});
    watchers.add('b', () => {});
    expect(() => watchers.add('c', () => {})).toThrow(BadRequestError);
    expect(() => watchers.add('c', () => {})).toThrow('At most 2 dataIds can be watched at once');
    expect(watchers.keys()).toEqual(['a', 'b']);
    expect(changes).toHaveLength(2);
    expect(() => watchers.add('a', () => {})).not.toThrow();
  });

  it('given a listener that throws, then the others still hear the change and the error surfaces later', async () => {
    const { watchers } = registry();
    const heard: number[] = [];
    const thrown = vi.fn();
    const queued: (() => void)[] = [];
    const realQueue = globalThis.queueMicrotask;
    globalThis.queueMicrotask = (task) => queued.push(task);
    try {
      watchers.add('a', () => {
        throw new Error('listener bug');
      });
      watchers.add('a', (v) => heard.push(v));
      watchers.notify('a', 1);
    } finally {
      globalThis.queueMicrotask = realQueue;
    }
    expect(heard).toEqual([1]);
    for (const task of queued) {
      try {
        task();
      } catch (error) {
        thrown(error);
      }
    }
    expect(thrown).toHaveBeenCalledWith(expect.objectContaining({ message: 'listener bug' }));
  });

  it('given clear, then no key is watched', () => {
    const { watchers } = registry();
    watchers.add('a', () => {});
    watchers.clear();
    expect(watchers.keys()).toEqual([]);
  });
});
