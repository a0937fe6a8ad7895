import type { StoredResponse } from '@pubstream/domain';

/** What a write shows, decided before it is appended (so that it can be recorded with it). */
export interface WriteResult<T> {
  readonly value: T;
  readonly created: boolean;
}

/** Binds an Idempotency-Key to the request it came with (apps/admin/src/writeResponder.ts). */
export interface RequestBinding<T> {
  readonly fingerprint: string;
  readonly method: string;
  readonly path: string;
  /** The HTTP answer this write earns: recorded with the write, replayed to exact retries. */
  answer(result: WriteResult<T>): StoredResponse;
}

export interface WriteOptions<T = unknown> {
  readonly idempotencyKey?: string;
  readonly binding?: RequestBinding<T>;
}

/** The outcome of a write: what to show, and how it went. */
export interface Written<T> extends WriteResult<T> {
  /** True when an earlier request with the same Idempotency-Key made this write: nothing new was appended. */
  readonly replayed: boolean;
  /** Log position of the write's last event, or null when it appended none. */
  readonly position: number | null;
  /** False when the read model could not confirm the write in time: committed, not yet visible (202). */
  readonly visible: boolean;
}
