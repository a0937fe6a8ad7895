import type { StoredResponse } from '@pubstream/domain';
import type { NewKeyView } from '../keyUseCases.js';
import type { WriteResult } from '../writeOutcome.js';

// What each write answers (recorded with an Idempotency-Key and replayed to exact retries).

/** 201 when the write created the resource, else 200; the resource as the body. */
export const created = <T>(result: WriteResult<T>): StoredResponse => ({ status: result.created ? 201 : 200, body: result.value });
export const ok = <T>(result: WriteResult<T>): StoredResponse => ({ status: 200, body: result.value });
export const noContent = (): StoredResponse => ({ status: 204, body: null });

/** A new key: 201 with the full key, shown once; a replay has no key to show and says why. */
export const keyCreated = (result: WriteResult<NewKeyView>): StoredResponse => ({
  status: 201,
  body: {
    ...result.value,
    message: result.value.key === null ? 'This Idempotency-Key already created this key; the full key is shown only once, at creation' : 'Copy the key now: it is shown only once',
  },
});
