import { describe, expect, it } from 'vitest';
import { matchKeyedRoute } from './keyedRouteMatch.js';

describe('matchKeyedRoute (the requests the hot path takes)', () => {
  it('takes the three keyed reads in their canonical spelling, query or not', () => {
    expect(matchKeyedRoute('GET', '/public/data/item-1')).toEqual({ name: 'item', pattern: '/public/data/:dataId', params: { dataId: 'item-1' } });
    expect(matchKeyedRoute('HEAD', '/public/data/item-1?minPosition=3')).toEqual({ name: 'item', pattern: '/public/data/:dataId', params: { dataId: 'item-1' } });
    expect(matchKeyedRoute('GET', '/public/collections/docs/data?page=2')).toEqual({ name: 'collectionPage', pattern: '/public/collections/:slug/data', params: { slug: 'docs' } });
    expect(matchKeyedRoute('POST', '/public/batch?minPosition=1')).toEqual({ name: 'batch', pattern: '/public/batch', params: {} });
  });

  it('leaves every other spelling, method and path to the router', () => {
    for (const [method, url] of [
      ['GET', '/public/data/'],
      ['GET', '/public/data/item-1/'],
      ['GET', '/public/data/a/b'],
      ['GET', '/public/data/%69tem-1'],
      ['GET', '/public/data/..'],
      ['GET', '/public/data/item-1#x'],
      ['GET', '/PUBLIC/data/item-1'],
      ['GET', '//public/data/item-1'],
      ['POST', '/public/data/item-1'],
      ['OPTIONS', '/public/data/item-1'],
      ['GET', '/public/batch'],
      ['POST', '/public/batch/'],
      ['GET', '/public/collections/data'],
      ['GET', '/public/collections//data'],
      ['GET', '/public/collections/a/b/data'],
      ['GET', '/public/collections/docs/changes'],
      ['GET', '/healthz'],
      ['GET', undefined],
    ] as const) {
      expect(matchKeyedRoute(method, url), `${method} ${url}`).toBeNull();
    }
  });
});
