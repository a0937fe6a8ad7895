import type { PubstreamEvent } from '@pubstream/domain';
import type { KeyRecord } from '@pubstream/read-model';
import { defineProjection, loadEach, type ProjectedEvent, type ProjectionSpec } from './projection.js';

const idOf = (event: PubstreamEvent): string => {
  switch (event.type) {
    case 'ApiKeyCreated':
    case 'ApiKeyUpdated':
    case 'ApiKeyDeleted':
      return event.data.keyId;
    default:
      return '';
  }
};

/** API key records by keyId (the read model indexes them by hash too). */
export const apiKeySpec: ProjectionSpec<KeyRecord> = {
  name: 'apiKeys',
  handles: ['ApiKeyCreated', 'ApiKeyUpdated', 'ApiKeyDeleted'],
  idOf,
  creates: ['ApiKeyCreated'],
  load: (reads, keyIds) => loadEach(keyIds, (keyId) => reads.keys.getKey(keyId)),
  evolve(doc: KeyRecord | null, { event, revision, at }: ProjectedEvent): KeyRecord | null {
    switch (event.type) {
      case 'ApiKeyCreated': {
        const { keyId, keyHash, name, type, last4, allowedDomains, rateLimit } = event.data;
        return { keyId, keyHash, name, type, last4, allowedDomains, rateLimit, createdAt: at, version: revision };
      }
      case 'ApiKeyUpdated': {
        // The hash, type and last4 never change; they come from the stored record.
        if (!doc) return null;
        const { name, allowedDomains, rateLimit } = event.data;
        return { ...doc, name, allowedDomains, rateLimit, version: revision };
      }
      case 'ApiKeyDeleted':
        return null;
      default:
        return doc;
    }
  },
  toOp(next, { event, revision }) {
    if (next) return { kind: 'key.put', key: next };
    if (event.type === 'ApiKeyDeleted') return { kind: 'key.delete', keyId: event.data.keyId, keyHash: event.data.keyHash, version: revision };
    return null;
  },
};

export const apiKeyProjection = defineProjection(apiKeySpec);
