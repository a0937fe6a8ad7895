import { commonHeaders, type HeaderContract } from '@pubstream/http';
import { z } from 'zod';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency.js';

/** The headers of the admin API's contract (docs/admin-api.md, Conventions). */
export const adminHeaders: Readonly<Record<string, HeaderContract>> = {
  ...commonHeaders,
  'WWW-Authenticate': { description: '`Bearer realm="pubstream-admin"`', schema: z.string() },
  'Idempotency-Key': {
    description: `1–${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters: a retry with the same key and request gets the first answer; another request with it is 422`,
    schema: z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH),
  },
  'Idempotent-Replayed': { description: '`true` on the recorded answer to a retry', schema: z.literal('true') },
  'X-Position': {
    description: 'The log position of the write\'s last event (every write that appended events): pass it to the public reads\' `minPosition`; a 202 is visible once the projector has applied it',
    schema: z.number().int().min(0),
  },
  Location: { description: 'The new resource', schema: z.string() },
};
