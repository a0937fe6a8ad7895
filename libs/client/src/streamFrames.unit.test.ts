import { describe, expect, it } from 'vitest';
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from './errors.js';
import { fatalStreamError, parseFrame, readDeleteFrame, readUpdateFrame, staleStreamAfterMs } from './streamFrames.js';

const frame = (payload: unknown) => ({ data: JSON.stringify(payload) });

describe('stream frames', () => {
  it('parses JSON payloads and gives undefined for a missing or broken one', () => {
    expect(parseFrame(frame({ a: 1 }))).toEqual({ a: 1 });
    expect(parseFrame({ data: '{broken' })).toBeUndefined();
    expect(parseFrame({})).toBeUndefined();
  });

  it('reads an item update, a collection update, and an update it does not know', () => {
    expect(readUpdateFrame(frame({ dataId: 'a', data: { n: 1 }, action: 'update' }))).toEqual({ kind: 'item', dataId: 'a', data: { n: 1 } });
    expect(readUpdateFrame(frame({ dataId: 'a', action: 'update' }))).toEqual({ kind: 'item', dataId: 'a', data: {} });
    const page = { data: [], total: 0, page: 1, limit: 20, totalPages: 0 };
    expect(readUpdateFrame(frame({ collectionSlug: 'news', data: page }))).toEqual({ kind: 'collection', slug: 'news', page });
    expect(readUpdateFrame(frame({ something: 'else' }))).toEqual({ kind: 'other' });
    expect(readUpdateFrame({ data: 'nope' })).toBeUndefined();
  });

  it('reads the dataId of a delete, if it names one', () => {
    expect(readDeleteFrame(frame({ dataId: 'a', data: {}, action: 'delete' }))).toBe('a');
    expect(readDeleteFrame(frame({ dataId: 7 }))).toBeUndefined();
    expect(readDeleteFrame({ data: 'nope' })).toBeUndefined();
  });

  it('takes a stream as dead well past its jittered lifetime, and never without one', () => {
    expect(staleStreamAfterMs(300_000)).toBe(380_000);
    expect(staleStreamAfterMs(0)).toBeUndefined();
    expect(staleStreamAfterMs(undefined)).toBeUndefined();
  });

  it('maps the refusals a retry cannot fix to typed errors, and nothing else', () => {
    expect(fatalStreamError({ code: 400, message: 'bad' })).toBeInstanceOf(BadRequestError);
    expect(fatalStreamError({ code: 401 })).toEqual(expect.objectContaining({ status: 401, message: 'Subscription refused' }));
    expect(fatalStreamError({ code: 401 })).toBeInstanceOf(UnauthorizedError);
    expect(fatalStreamError({ code: 403 })).toBeInstanceOf(ForbiddenError);
    expect(fatalStreamError({ code: 404 })).toBeInstanceOf(NotFoundError);
    expect(fatalStreamError({ code: 429 })).toBeUndefined();
    expect(fatalStreamError({ code: 503 })).toBeUndefined();
    expect(fatalStreamError({ message: 'socket hang up' })).toBeUndefined();
  });
});
