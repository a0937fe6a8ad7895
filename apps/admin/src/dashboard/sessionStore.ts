import { randomBytes } from 'node:crypto';

/** What the page shows once after a redirect (a new key, a notice, an error). */
export type Flash =
  | { readonly kind: 'created'; readonly key: string; readonly name: string; readonly keyId: string }
  | { readonly kind: 'notice'; readonly message: string }
  | { readonly kind: 'error'; readonly message: string };

export interface Session {
  readonly id: string;
  readonly csrfToken: string;
  readonly createdAt: number;
  lastSeenAt: number;
  flash: Flash | null;
}

export interface SessionStoreOptions {
  readonly now: () => Date;
  /** A session unused this long is gone (default 2 hours). */
  readonly idleTimeoutMs?: number;
  /** A session ends this long after sign-in whatever happens (default 12 hours). */
  readonly maxAgeMs?: number;
  /** Oldest sessions are dropped beyond this many (default 1000). */
  readonly maxSessions?: number;
}

export type SessionStore = ReturnType<typeof createSessionStore>;

const newSecret = (): string => randomBytes(32).toString('base64url');

/**
 * Dashboard sessions kept in this process's memory: 256-bit random ids, idle and absolute expiry.
 * A restart of the admin process signs everybody out, which is acceptable for an operator page.
 */
export const createSessionStore = (options: SessionStoreOptions) => {
  const idleTimeoutMs = options.idleTimeoutMs ?? 2 * 3_600_000;
  const maxAgeMs = options.maxAgeMs ?? 12 * 3_600_000;
  const maxSessions = options.maxSessions ?? 1_000;
  // Insertion order is creation order: the first entries are the oldest.
  const sessions = new Map<string, Session>();
  const clock = () => options.now().getTime();
  const expired = (session: Session, at: number) => at - session.lastSeenAt > idleTimeoutMs || at - session.createdAt > maxAgeMs;

  return {
    create(): Session {
      const at = clock();
      for (const [id, session] of sessions) if (expired(session, at)) sessions.delete(id);
      while (sessions.size >= maxSessions) {
        const oldest = sessions.keys().next().value;
        if (oldest === undefined) break;
        sessions.delete(oldest);
      }
      const session: Session = { id: newSecret(), csrfToken: newSecret(), createdAt: at, lastSeenAt: at, flash: null };
      sessions.set(session.id, session);
      return session;
    },

    /** The live session with this id (and marks it used), or null. */
    get(id: string | undefined): Session | null {
      if (id === undefined || id === '') return null;
      const session = sessions.get(id);
      if (!session) return null;
      const at = clock();
      if (expired(session, at)) {
        sessions.delete(id);
        return null;
      }
      session.lastSeenAt = at;
      return session;
    },

    destroy(id: string): void {
      sessions.delete(id);
    },

    /** Takes the flash message out of the session: it is shown exactly once. */
    takeFlash(session: Session): Flash | null {
      const flash = session.flash;
      session.flash = null;
      return flash;
    },

    get size(): number {
      return sessions.size;
    },
  };
};
