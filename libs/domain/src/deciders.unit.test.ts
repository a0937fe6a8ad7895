import { describe, expect, it } from 'vitest';
import { apiKeyDecider } from './apiKey.js';
import { collectionDecider } from './collection.js';
import { foldEvents, type Decider } from './decider.js';
import { ConflictError, NotFoundError, UnprocessableEntityError, ValidationError } from './errors.js';
import type { ApiKeyEvent, CollectionEvent, IdempotencyEvent, ItemEvent, PubstreamEvent } from './events.js';
import { idempotencyDecider, replayFor } from './idempotency.js';
import type { ApiKeyCommand } from './apiKey.js';
import { itemDecider } from './item.js';
import { projectDecider } from './project.js';

/** given events, when a command, then these events (or this error). */
const spec = <C, S, E extends PubstreamEvent>(decider: Decider<C, S, E>) => (given: E[]) => ({
  when: (command: C) => ({
    then: (expected: E[]) => expect(decider.decide(command, foldEvents(decider, given))).toEqual(expected),
    thenThrows: (error: new (...args: never[]) => Error, message?: RegExp) => {
      const run = () => decider.decide(command, foldEvents(decider, given));
      expect(run).toThrow(error);
      if (message) expect(run).toThrow(message);
    },
  }),
});

describe('collectionDecider', () => {
  const given = spec(collectionDecider);
  const created: CollectionEvent = { type: 'CollectionCreated', data: { slug: 'books', name: 'Books', sortableFields: [{ name: 'year', type: 'number' }] } };

  it('creates a new collection', () => {
    given([]).when({ type: 'CreateCollection', slug: 'books', name: 'Books', sortableFields: [{ name: 'year', type: 'number' }] }).then([created]);
  });
  it('refuses to create an existing collection', () => {
    given([created]).when({ type: 'CreateCollection', slug: 'books', name: 'Again', sortableFields: [] }).thenThrows(ConflictError, /already exists/);
  });
  it('allows re-creating a deleted collection', () => {
    given([created, { type: 'CollectionDeleted', data: { slug: 'books' } }])
      .when({ type: 'CreateCollection', slug: 'books', name: 'New', sortableFields: [] })
      .then([{ type: 'CollectionCreated', data: { slug: 'books', name: 'New', sortableFields: [] } }]);
  });
  it('refuses built-in, duplicate and too many sortable fields', () => {
    given([]).when({ type: 'CreateCollection', slug: 'b', name: 'B', sortableFields: [{ name: 'createdAt', type: 'string' }] }).thenThrows(ValidationError, /built in/);
    given([])
      .when({ type: 'CreateCollection', slug: 'b', name: 'B', sortableFields: [{ name: 'x', type: 'string' }, { name: 'x', type: 'number' }] })
      .thenThrows(ValidationError, /twice/);
    const many = Array.from({ length: 17 }, (_, i) => ({ name: `f${i}`, type: 'number' as const }));
    given([]).when({ type: 'CreateCollection', slug: 'b', name: 'B', sortableFields: many }).thenThrows(ValidationError, /at most 16/);
  });
  it('updates name and fields, keeping what is not given', () => {
    given([created])
      .when({ type: 'UpdateCollection', slug: 'books', name: 'All books' })
      .then([{ type: 'CollectionUpdated', data: { slug: 'books', name: 'All books', sortableFields: [{ name: 'year', type: 'number' }] } }]);
  });
  it('an update that changes nothing appends nothing', () => {
    given([created]).when({ type: 'UpdateCollection', slug: 'books', name: 'Books' }).then([]);
  });
  it('refuses to update or delete a missing or deleted collection', () => {
    given([]).when({ type: 'UpdateCollection', slug: 'books', name: 'x' }).thenThrows(NotFoundError);
    given([created, { type: 'CollectionDeleted', data: { slug: 'books' } }]).when({ type: 'DeleteCollection', slug: 'books' }).thenThrows(NotFoundError);
  });
  it('deletes an active collection', () => {
    given([created]).when({ type: 'DeleteCollection', slug: 'books' }).then([{ type: 'CollectionDeleted', data: { slug: 'books' } }]);
  });
});

describe('itemDecider', () => {
  const given = spec(itemDecider);
  const id = '0b6a3c1e-8f1e-4c36-9a55-1f0d1f6a7c10';
  const created: ItemEvent = { type: 'ItemCreated', data: { id, dataId: 'dune', collection: 'books', data: { year: 1965 } } };

  it('creates an item on the first put', () => {
    given([]).when({ type: 'PutItem', id, dataId: 'dune', collection: 'books', data: { year: 1965 } }).then([created]);
  });
  it('updates an item whose data changed', () => {
    given([created])
      .when({ type: 'PutItem', id: 'ignored', dataId: 'dune', collection: 'books', data: { year: 1966 } })
      .then([{ type: 'ItemUpdated', data: { dataId: 'dune', collection: 'books', data: { year: 1966 } } }]);
  });
  it('a put with the same data appends nothing', () => {
    given([created]).when({ type: 'PutItem', id, dataId: 'dune', collection: 'books', data: { year: 1965 } }).then([]);
  });
  it('refuses a dataId that belongs to another collection', () => {
    given([created]).when({ type: 'PutItem', id, dataId: 'dune', collection: 'films', data: {} }).thenThrows(ConflictError, /belongs to collection "books"/);
  });
  it('re-creates a deleted item, even in another collection', () => {
    given([created, { type: 'ItemDeleted', data: { dataId: 'dune', collection: 'books' } }])
      .when({ type: 'PutItem', id, dataId: 'dune', collection: 'films', data: {} })
      .then([{ type: 'ItemCreated', data: { id, dataId: 'dune', collection: 'films', data: {} } }]);
  });
  it('deletes an item of its own collection only', () => {
    given([created]).when({ type: 'DeleteItem', dataId: 'dune', collection: 'books' }).then([{ type: 'ItemDeleted', data: { dataId: 'dune', collection: 'books' } }]);
    given([created]).when({ type: 'DeleteItem', dataId: 'dune', collection: 'films' }).thenThrows(NotFoundError);
    given([]).when({ type: 'DeleteItem', dataId: 'dune', collection: 'books' }).thenThrows(NotFoundError);
  });
});

describe('apiKeyDecider', () => {
  const given = spec(apiKeyDecider);
  const hash = 'a'.repeat(64);
  const create: Extract<ApiKeyCommand, { type: 'CreateApiKey' }> = {
    type: 'CreateApiKey',
    keyId: 'k1',
    name: 'Site',
    keyType: 'live',
    keyHash: hash,
    last4: 'abcd',
    allowedDomains: ['example.com'],
    rateLimit: 100,
    maxRateLimit: 1_000,
  };
  const created: Extract<ApiKeyEvent, { type: 'ApiKeyCreated' }> = {
    type: 'ApiKeyCreated',
    data: { keyId: 'k1', name: 'Site', type: 'live', keyHash: hash, last4: 'abcd', allowedDomains: ['example.com'], rateLimit: 100 },
  };

  it('creates a key within the plan maximum', () => {
    given([]).when({ ...create, allowedDomains: ['example.com'] }).then([{ ...created, data: { ...created.data, allowedDomains: ['example.com'] } }]);
  });
  it('refuses a rate limit above the plan maximum', () => {
    given([]).when({ ...create, allowedDomains: [], rateLimit: 1_001 }).thenThrows(ValidationError, /maximum of 1000/);
  });
  it('refuses a taken key id', () => {
    given([{ ...created, data: { ...created.data, allowedDomains: [] } }]).when({ ...create, allowedDomains: [] }).thenThrows(ValidationError, /taken/);
  });
  it('updates only what changed, and nothing when nothing did', () => {
    const base = [{ ...created, data: { ...created.data, allowedDomains: ['example.com'] } }];
    given(base)
      .when({ type: 'UpdateApiKey', keyId: 'k1', rateLimit: 200, maxRateLimit: 1_000 })
      .then([{ type: 'ApiKeyUpdated', data: { keyId: 'k1', name: 'Site', allowedDomains: ['example.com'], rateLimit: 200 } }]);
    given(base).when({ type: 'UpdateApiKey', keyId: 'k1', name: 'Site', maxRateLimit: 1_000 }).then([]);
    given(base).when({ type: 'UpdateApiKey', keyId: 'k1', rateLimit: 5_000, maxRateLimit: 1_000 }).thenThrows(ValidationError);
  });
  it('deletes a key once, carrying its hash so every node can drop it', () => {
    const base = [{ ...created, data: { ...created.data, allowedDomains: [] } }];
    given(base).when({ type: 'DeleteApiKey', keyId: 'k1' }).then([{ type: 'ApiKeyDeleted', data: { keyId: 'k1', keyHash: hash } }]);
    given([...base, { type: 'ApiKeyDeleted', data: { keyId: 'k1', keyHash: hash } }]).when({ type: 'DeleteApiKey', keyId: 'k1' }).thenThrows(NotFoundError);
    given([...base, { type: 'ApiKeyDeleted', data: { keyId: 'k1', keyHash: hash } }])
      .when({ type: 'UpdateApiKey', keyId: 'k1', name: 'x', maxRateLimit: 1_000 })
      .thenThrows(NotFoundError);
  });
});

describe('projectDecider', () => {
  const given = spec(projectDecider);
  it('starts on the default plan and changes it', () => {
    given([]).when({ type: 'ChangePlan', plan: 'pro', monthlyQuota: 50_000 }).then([{ type: 'PlanChanged', data: { plan: 'pro', monthlyQuota: 50_000 } }]);
  });
  it('appends nothing when the plan is already the one asked for', () => {
    given([]).when({ type: 'ChangePlan', plan: 'business', monthlyQuota: null }).then([]);
    given([{ type: 'PlanChanged', data: { plan: 'pro', monthlyQuota: 5 } }]).when({ type: 'ChangePlan', plan: 'pro', monthlyQuota: 5 }).then([]);
  });
});

describe('idempotencyDecider', () => {
  const given = spec(idempotencyDecider);
  const fingerprint = 'f'.repeat(64);
  const record = { type: 'RecordRequest', fingerprint, method: 'PUT', path: '/admin/collections/books/items/dune', response: { status: 201, body: { dataId: 'dune' } } } as const;
  const recorded: IdempotencyEvent = { type: 'IdempotentRequestRecorded', data: { fingerprint, method: 'PUT', path: record.path, response: record.response } };

  it('binds an unused key to its first request and answer', () => {
    given([]).when(record).then([recorded]);
  });
  it('never binds a key twice', () => {
    given([recorded]).when(record).thenThrows(ConflictError);
  });
  it('notes a 202 answer once, and only for a bound key', () => {
    given([recorded]).when({ type: 'MarkAccepted', position: 7 }).then([{ type: 'IdempotentResponseAccepted', data: { position: 7 } }]);
    given([recorded, { type: 'IdempotentResponseAccepted', data: { position: 7 } }]).when({ type: 'MarkAccepted', position: 9 }).then([]);
    given([]).when({ type: 'MarkAccepted', position: 7 }).then([]);
  });
  it('replays the recorded answer to the same request and refuses another one with 422', () => {
    const state = foldEvents(idempotencyDecider, [recorded, { type: 'IdempotentResponseAccepted', data: { position: 7 } }]);
    expect(replayFor(state, fingerprint)).toEqual({ response: record.response, acceptedAt: 7 });
    expect(() => replayFor(state, 'e'.repeat(64))).toThrow(UnprocessableEntityError);
    expect(replayFor(idempotencyDecider.initialState(), fingerprint)).toBeNull();
  });
});
