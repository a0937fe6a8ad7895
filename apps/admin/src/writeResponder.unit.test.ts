import { collectionDecider, ServiceUnavailableError, streamNames } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { createIdempotencyRecords } from './idempotencyRecords.js';
import { koaContext } from './testing/koaContext.js';
import { createWriteWorld } from './testing/writeWorld.js';
import { createWriteResponder } from './writeResponder.js';
import type { WriteOptions, WriteResult } from './writeOutcome.js';

const answer = (result: WriteResult<{ slug: string }>) => ({ status: result.created ? 201 : 200, body: result.value });

/** One POST /admin/collections through the responder; `headers` may carry an Idempotency-Key. */
const setup = () => {
  const world = createWriteWorld();
  const records = createIdempotencyRecords({ commands: world.commands, logger: { warn: () => undefined } });
  const respond = createWriteResponder(records);
  const post = async (body: { slug: string }, headers: Record<string, string> = {}) => {
    const ctx = koaContext({ method: 'POST', path: '/admin/collections', headers });
    const perform = (options: WriteOptions<{ slug: string }>) =>
      world.write(collectionDecider, streamNames.collection(body.slug), { type: 'CreateCollection', slug: body.slug, name: body.slug, sortableFields: [] }, options, (decided) => ({
        value: { slug: body.slug },
        created: decided.events.some((event) => event.type === 'CollectionCreated'),
      }));
    await respond(ctx, body, perform, answer).catch((error: unknown) => {
      ctx.status = (error as { status?: number }).status ?? 500;
    });
    return { status: ctx.status, body: ctx.body, replayed: ctx.response.get('Idempotent-Replayed'), position: ctx.response.get('X-Position'), retryAfter: ctx.response.get('Retry-After') };
  };
  return { world, post };
};

describe('writeResponder', () => {
  it('answers what the write earned with its log position in X-Position; a write the read model did not confirm is 202 with its position', async () => {
    const { world, post } = setup();
    expect(await post({ slug: 'books' })).toMatchObject({ status: 201, body: { slug: 'books' }, replayed: undefined, position: '1' });
    world.visible = false;
    expect(await post({ slug: 'films' })).toMatchObject({ status: 202, body: { slug: 'films', position: 2 }, position: '2' });
  });

  it('replays an exact retry under the same Idempotency-Key, and refuses the key for another request (422)', async () => {
    const { world, post } = setup();
    const key = { 'idempotency-key': 'k-1' };
    expect(await post({ slug: 'books' }, key)).toMatchObject({ status: 201 });
    const appended = world.log.length;
    expect(await post({ slug: 'books' }, key)).toMatchObject({ status: 201, body: { slug: 'books' }, replayed: 'true' });
    expect(await post({ slug: 'films' }, key)).toMatchObject({ status: 422 });
    expect(world.log).toHaveLength(appended);
  });

  it('retries of a 202 answer 202 with the same position', async () => {
    const { world, post } = setup();
    world.visible = false;
    const first = await post({ slug: 'books' }, { 'idempotency-key': 'k-2' });
    world.visible = true;
    expect(await post({ slug: 'books' }, { 'idempotency-key': 'k-2' })).toEqual({ ...first, replayed: 'true' });
    expect(first).toMatchObject({ status: 202, position: '1' });
  });

  it('a write that committed nothing because the log is down is 503 with Retry-After', async () => {
    const { world, post } = setup();
    world.fail(new ServiceUnavailableError('The event store is unavailable'));
    expect(await post({ slug: 'books' })).toMatchObject({ status: 503, retryAfter: '1' });
  });
});
