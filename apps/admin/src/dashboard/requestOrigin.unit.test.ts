import { describe, expect, it } from 'vitest';
import { isSameOriginRequest } from './requestOrigin.js';

const self = 'http://127.0.0.1:8081';

describe('isSameOriginRequest', () => {
  it.each([
    ['own Origin and same-origin fetch site', { origin: self, secFetchSite: 'same-origin' }, true],
    ['own Origin only (older browser)', { origin: self, secFetchSite: '' }, true],
    ['same-origin fetch site only', { origin: '', secFetchSite: 'same-origin' }, true],
    ['another port on the same host', { origin: 'http://127.0.0.1:9999', secFetchSite: 'same-site' }, false],
    ['another site', { origin: 'https://evil.example', secFetchSite: 'cross-site' }, false],
    ['opaque origin', { origin: 'null', secFetchSite: 'cross-site' }, false],
    ['own Origin but cross-site fetch site', { origin: self, secFetchSite: 'cross-site' }, false],
    ['typed into the address bar (none)', { origin: '', secFetchSite: 'none' }, false],
    ['neither header', { origin: '', secFetchSite: '' }, false],
  ])('%s', (_title, headers, expected) => {
    expect(isSameOriginRequest(headers, self)).toBe(expected);
  });
});
