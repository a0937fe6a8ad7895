import { errorBodySchema, type ResponseContract } from '@pubstream/http';
import type { z } from 'zod';

/** An error answer of the admin API. */
export const adminError = (description: string, headers: readonly string[] = ['X-Request-Id']): ResponseContract => ({ description, body: errorBodySchema, headers });

/** Every route behind the admin token. */
export const tokenRefusals = {
  '401': adminError('`Missing or invalid admin token`', ['X-Request-Id', 'WWW-Authenticate']),
  '429': adminError('Too many failed authentications from this address: blocked (even with the right token)', ['X-Request-Id', 'Retry-After']),
  '503': adminError('A backend is unavailable; a write answered 503 wrote nothing', ['X-Request-Id', 'Retry-After']),
} as const;

/** Every route that reads a JSON body. */
export const bodyRefusals = {
  '413': adminError('Body over 1 MiB (decompressed)'),
  '415': adminError('`Content-Type` is not application/json, or an unknown `Content-Encoding`'),
  '422': adminError('`Idempotency-Key was used with a different request`'),
} as const;

/** X-Position: on every write that appended events (none on a replayed or no-op answer). */
const WRITE_HEADERS = ['X-Request-Id', 'Idempotent-Replayed', 'X-Position'];

/** The answer of a write: its status, or 202 with the same body plus its position when the read model has not confirmed it in time. */
export const written = (status: '200' | '201', description: string, body: z.ZodType, acceptedBody: z.ZodType, extraHeaders: readonly string[] = []) => ({
  [status]: { description, body, headers: [...WRITE_HEADERS, ...extraHeaders] },
  '202': { description: 'Committed, not yet confirmed by the read model: do not write it again (docs/admin-api.md, 202 Accepted)', body: acceptedBody, headers: WRITE_HEADERS },
});
