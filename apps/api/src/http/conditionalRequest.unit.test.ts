import { describe, expect, it } from 'vitest';
import { cacheControlValue } from './cachePolicy.js';
import { httpDate, isNotModified } from './conditionalRequest.js';
import { createCodingChooser } from './replyEncoding.js';

const validators = { etag: 'W/"abc"', lastModified: 'Fri, 02 Jan 2026 00:00:00 GMT' };
const request = (headers: { ifNoneMatch?: string; ifModifiedSince?: string; method?: string }) => ({ ifNoneMatch: '', ifModifiedSince: '', method: 'GET', ...headers });

describe('conditional requests', () => {
  it('If-None-Match: 304 for the same tag (weak comparison) or *, else the full answer', () => {
    expect(isNotModified(request({ ifNoneMatch: 'W/"abc"' }), validators)).toBe(true);
    expect(isNotModified(request({ ifNoneMatch: '"abc"' }), validators)).toBe(true);
    expect(isNotModified(request({ ifNoneMatch: 'W/"x", W/"abc"' }), validators)).toBe(true);
    expect(isNotModified(request({ ifNoneMatch: '*' }), validators)).toBe(true);
    expect(isNotModified(request({ ifNoneMatch: 'W/"old"' }), validators)).toBe(false);
    expect(isNotModified(request({ ifNoneMatch: 'W/"abc"', method: 'POST' }), validators)).toBe(true);
  });

  it('If-Modified-Since: 304 when the answer has not changed after the date held', () => {
    expect(isNotModified(request({ ifModifiedSince: 'Fri, 02 Jan 2026 00:00:00 GMT' }), validators)).toBe(true);
    expect(isNotModified(request({ ifModifiedSince: 'Sat, 03 Jan 2026 00:00:00 GMT' }), validators)).toBe(true);
    expect(isNotModified(request({ ifModifiedSince: 'Thu, 01 Jan 2026 23:59:59 GMT' }), validators)).toBe(false);
  });

  it('If-Modified-Since is ignored with If-None-Match, on POST, when unparsable or without Last-Modified', () => {
    const later = 'Sat, 03 Jan 2026 00:00:00 GMT';
    expect(isNotModified(request({ ifNoneMatch: 'W/"old"', ifModifiedSince: later }), validators)).toBe(false);
    expect(isNotModified(request({ ifModifiedSince: later, method: 'POST' }), validators)).toBe(false);
    expect(isNotModified(request({ ifModifiedSince: 'yesterday-ish' }), validators)).toBe(false);
    expect(isNotModified(request({ ifModifiedSince: later }), { etag: null, lastModified: null })).toBe(false);
  });

  it('HTTP dates from ISO times, in whole seconds', () => {
    expect(httpDate('2026-01-02T03:04:05.678Z')).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect(httpDate('not a date')).toBeNull();
  });
});

describe('cache policy', () => {
  it('private, with stale-while-revalidate only when configured', () => {
    expect(cacheControlValue({ maxAgeSeconds: 0, staleWhileRevalidateSeconds: 0 })).toBe('private, max-age=0');
    expect(cacheControlValue({ maxAgeSeconds: 5, staleWhileRevalidateSeconds: 30 })).toBe('private, max-age=5, stale-while-revalidate=30');
  });
});

describe('content coding choice', () => {
  it('asks the negotiator once per distinct header value; identity and refusals are null', () => {
    const choose = createCodingChooser();
    let asked = 0;
    const negotiate = (answer: string | false) => () => (asked++, answer);
    expect(choose('gzip, br', negotiate('br'))).toBe('br');
    expect(choose('gzip, br', negotiate('gzip'))).toBe('br');
    expect(asked).toBe(1);
    expect(choose('gzip', negotiate('gzip'))).toBe('gzip');
    expect(choose('identity', negotiate('identity'))).toBeNull();
    expect(choose('compress', negotiate(false))).toBeNull();
    expect(choose(undefined, negotiate('br'))).toBeNull();
  });
});
