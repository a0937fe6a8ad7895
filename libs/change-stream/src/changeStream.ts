import type { ItemData } from '@pubstream/domain';

/**
 * One projected change, published after the read-model write is durable. Consumers use
 * `version` to drop duplicates and stale messages (delivery is at-least-once).
 */
export type ChangeMessage =
  | {
      readonly kind: 'item';
      readonly action: 'update' | 'delete';
      readonly dataId: string;
      readonly collectionId: string;
      readonly version: number;
      readonly position: number;
      /** The item's new data on update (empty object on delete). */
      readonly data: ItemData;
    }
  | { readonly kind: 'collection'; readonly action: 'update' | 'delete'; readonly slug: string; readonly version: number; readonly position: number }
  | { readonly kind: 'key'; readonly action: 'update' | 'delete'; readonly keyId: string; readonly keyHash: string; readonly version: number; readonly position: number }
  | { readonly kind: 'plan'; readonly action: 'update'; readonly version: number; readonly position: number };

/** The entity a message is about; one entity's messages keep their order (Kafka message key). */
export const changeKey = (message: ChangeMessage): string => {
  switch (message.kind) {
    case 'item':
      return `item:${message.dataId}`;
    case 'collection':
      return `collection:${message.slug}`;
    case 'key':
      return `key:${message.keyId}`;
    case 'plan':
      return 'plan';
  }
};

export interface ChangeSubscription {
  close(): Promise<void>;
  /**
   * Why messages may not be arriving now (the broker is unreachable, the consumer crashed), for
   * /readyz; null when healthy. Absent: never has one (the in-process stream).
   */
  problem?(): string | null;
}

export interface ChangeStreamHandlers {
  onMessages(messages: readonly ChangeMessage[]): void;
  /**
   * Called when the consumer may have missed messages (it restarted, fell behind or lost its
   * connection): caches must be dropped and subscribers re-synced from the read models.
   */
  onGap?(reason: string): void;
}

export interface ChangeStream {
  /** Resolves when every message is durably accepted by the stream, in order. */
  publish(messages: readonly ChangeMessage[]): Promise<void>;
  /** Receives messages published from now on (every partition, never a shared consumer group). */
  subscribe(handlers: ChangeStreamHandlers): Promise<ChangeSubscription>;
  close(): Promise<void>;
}
