import type { ChangeMessage } from '@pubstream/change-stream';

type ItemMessage = Extract<ChangeMessage, { kind: 'item' }>;

/** What the hub does with each kind of change message. */
export interface ChangeHandlers {
  /** An item changed: fan it out to the item's streams, then mark its collection's page changed. */
  item(message: ItemMessage): void;
  /** A collection itself changed (or was deleted). */
  collection(slug: string): void;
  /** A key was deleted: its streams end at once. */
  keyDeleted(keyId: string, keyHash: string): void;
  /** The plan changed: streams end if it lost reactive mode. */
  planChanged(): void;
}

export interface ChangeDispatcher {
  onMessages(messages: readonly ChangeMessage[]): void;
  /** Change messages received so far. */
  readonly received: number;
}

/** Routes the change stream's messages, in order, to the hub's handlers (docs/subscriptions.md, "Fanout"). */
export const createChangeDispatcher = (handlers: ChangeHandlers): ChangeDispatcher => {
  let received = 0;
  const dispatch = (message: ChangeMessage): void => {
    switch (message.kind) {
      case 'item':
        return handlers.item(message);
      case 'collection':
        return handlers.collection(message.slug);
      case 'key':
        if (message.action === 'delete') handlers.keyDeleted(message.keyId, message.keyHash);
        return;
      case 'plan':
        return handlers.planChanged();
      default: {
        const unknown: never = message;
        return unknown;
      }
    }
  };
  return {
    onMessages(messages) {
      for (const message of messages) {
        received++;
        dispatch(message);
      }
    },
    get received() {
      return received;
    },
  };
};
