import { describe, expect, it } from 'vitest';
import { createSessionStore } from './sessionStore.js';

const clock = () => {
  let at = Date.parse('2026-11-23T10:00:00Z');
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
};

describe('session store', () => {
  it('gives every session a different random id and CSRF token', () => {
    const store = createSessionStore({ now: () => new Date() });
    const [a, b] = [store.create(), store.create()];
    expect(a.id).not.toBe(b.id);
    expect(a.csrfToken).not.toBe(a.id);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(store.get(a.id)).toBe(a);
    expect(store.get('unknown')).toBeNull();
    expect(store.get(undefined)).toBeNull();
  });

  it('ends a session after the idle timeout, and after the maximum age even when used', () => {
    const time = clock();
    const store = createSessionStore({ now: time.now, idleTimeoutMs: 1_000, maxAgeMs: 5_000 });
    const idle = store.create();
    const busy = store.create();
    for (let i = 0; i < 5; i++) {
      time.advance(900);
      expect(store.get(busy.id)).toBe(busy);
    }
    expect(store.get(idle.id)).toBeNull();
    time.advance(900);
    expect(store.get(busy.id)).toBeNull();
  });

  it('hands out a flash message once', () => {
    const store = createSessionStore({ now: () => new Date() });
    const session = store.create();
    session.flash = { kind: 'created', key: 'pk_live_x', name: 'n', keyId: 'k' };
    expect(store.takeFlash(session)).toMatchObject({ key: 'pk_live_x' });
    expect(store.takeFlash(session)).toBeNull();
  });

  it('drops the oldest sessions beyond the cap, and destroy signs out', () => {
    const store = createSessionStore({ now: () => new Date(), maxSessions: 2 });
    const [first, second, third] = [store.create(), store.create(), store.create()];
    expect(store.get(first.id)).toBeNull();
    expect(store.get(second.id)).toBe(second);
    store.destroy(third.id);
    expect(store.get(third.id)).toBeNull();
    expect(store.size).toBe(1);
  });
});
