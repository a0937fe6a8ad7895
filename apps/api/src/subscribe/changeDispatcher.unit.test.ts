import { describe, expect, it } from 'vitest';
import type { ChangeMessage } from '@pubstream/change-stream';
import { createChangeDispatcher } from './changeDispatcher.js';

const recordingHandlers = () => {
  const calls: string[] = [];
  return {
    calls,
    handlers: {
      item: (message: { dataId: string; version: number }) => void calls.push(`item ${message.dataId}@${message.version}`),
      collection: (slug: string) => void calls.push(`collection ${slug}`),
      keyDeleted: (keyId: string, keyHash: string) => void calls.push(`key ${keyId} ${keyHash}`),
      planChanged: () => void calls.push('plan'),
    },
  };
};

describe('change dispatcher', () => {
  it('given a batch of every kind, then each reaches its handler in order and every message is counted', () => {
    const { calls, handlers } = recordingHandlers();
    const dispatcher = createChangeDispatcher(handlers);
    const messages: ChangeMessage[] = [
      { kind: 'item', action: 'update', dataId: 'hero', collectionId: 'news', version: 3, position: 1, data: {} },
      { kind: 'collection', action: 'delete', slug: 'shop', version: 1, position: 2 },
      { kind: 'key', action: 'update', keyId: 'k1', keyHash: 'h1', version: 0, position: 3 },
      { kind: 'key', action: 'delete', keyId: 'k1', keyHash: 'h1', version: 1, position: 4 },
      { kind: 'plan', action: 'update', version: 2, position: 5 },
    ];
    dispatcher.onMessages(messages);
    expect(calls).toEqual(['item hero@3', 'collection shop', 'key k1 h1', 'plan']);
    expect(dispatcher.received).toBe(5);
  });
});
