import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { parseIdempotencyKey } from './idempotency.js';
import type { IdempotencyRecords } from './idempotencyRecords.js';
import type { ImportSummary } from './importItems.js';
import type { ReadYourWrites } from './readYourWrites.js';
import { sendWriteAnswer, withRetryAfter } from './writeAnswer.js';
import { fingerprintOf } from './writeResponder.js';

/**
 * The decoded body as it is read, with the SHA-256 of its bytes once it has been read whole. A
 * reader that stops early (`return`) does not close the source, so `drain` can read on.
 */
const hashedBody = (source: AsyncIterable<Buffer>): { input: AsyncIterable<Buffer>; digest: () => string } => {
  const hash = createHash('sha256');
  const chunks = source[Symbol.asyncIterator]();
  const reader: AsyncIterator<Buffer> = {
    async next() {
      const step = await chunks.next();
      if (!step.done) hash.update(step.value);
      return step;
    },
    return: async () => ({ done: true, value: undefined }),
  };
  let digest: string | undefined;
  return { input: { [Symbol.asyncIterator]: () => reader }, digest: () => (digest ??= hash.digest('hex')) };
};

const drain = async (input: AsyncIterable<Buffer>): Promise<void> => {
  for await (const _chunk of input) {
    // Read to the end: only the digest of the body is wanted.
  }
};

/** Answers one import request; `perform` imports `input` (see createImportResponder). */
export type ImportResponder = (
  ctx: Context,
  body: AsyncIterable<Buffer>,
  perform: (input: AsyncIterable<Buffer>, idempotencyKey: string | undefined) => Promise<ImportSummary>,
) => Promise<void>;

/**
 * Answers an NDJSON import (docs/admin-api.md). Its body is streamed, so its fingerprint (the
 * SHA-256 of the decoded bytes) is known only once it has been read: a key already bound is checked by
 * hashing the body without writing (replay, or 422); an unbound key is bound after the import,
 * whose lines carry event ids derived from the key (a retry rewrites nothing). 202 with the
 * position of its last event when the read model cannot confirm the import.
 */
export const createImportResponder = (deps: { records: IdempotencyRecords; readYourWrites: ReadYourWrites }) => {
  const run: ImportResponder = async (ctx, decoded, perform) => {
    const idempotencyKey = parseIdempotencyKey(ctx.headers['idempotency-key']);
    const body = hashedBody(decoded);
    const fingerprint = () => fingerprintOf(ctx, { ndjsonSha256: body.digest() });
    if (idempotencyKey !== undefined && (await deps.records.isBound(idempotencyKey))) {
      await drain(body.input);
      const earlier = await deps.records.replay(idempotencyKey, fingerprint());
      if (earlier) return sendWriteAnswer(ctx, earlier.response, earlier.acceptedAt, true);
    }
    const { lastPosition, ...summary } = await perform(body.input, idempotencyKey);
    const response = { status: 200, body: summary };
    if (idempotencyKey !== undefined) {
      await drain(body.input);
      const other = await deps.records.record(idempotencyKey, { fingerprint: fingerprint(), method: ctx.method, path: ctx.path, response });
      if (other) return sendWriteAnswer(ctx, other.response, other.acceptedAt, true);
    }
    const acceptedAt = (await deps.readYourWrites(lastPosition)) ? null : lastPosition;
    if (acceptedAt !== null && idempotencyKey !== undefined) await deps.records.markAccepted(idempotencyKey, acceptedAt);
    sendWriteAnswer(ctx, response, acceptedAt, false, lastPosition);
  };
  const respondImport: ImportResponder = (ctx, body, perform) => withRetryAfter(ctx, () => run(ctx, body, perform));
  return respondImport;
};
