import type { SnapshotItem } from './itemsAtPosition.js';
import { itemDeleteFrame, itemUpdateFrame, withId } from './sseFrames.js';
import type { ItemDelta } from './streamDeltas.js';

/** An item change message, as far as the frames need it. */
export interface ItemChange {
  readonly dataId: string;
  readonly action: 'update' | 'delete';
  readonly version: number;
  readonly position: number;
  readonly data: unknown;
}

/**
 * The versions and frames of the items the node's streams follow (docs/subscriptions.md,
 * "Fanout"). Each item message is framed once for all its subscribers, and a message whose version
 * is not above the last one seen (a duplicate, a stale or late message) is dropped before fanout.
 * The latest update frame of an item is kept (without its id: snapshot frames carry none), so that
 * snapshots read at that version reuse it.
 */
export class ItemFrames {
  /** Highest version seen per followed dataId: older or equal messages are dropped. */
  private readonly versions = new Map<string, number>();
  /** The latest update frame per followed dataId. */
  private readonly frames = new Map<string, { version: number; frame: string }>();

  /** The delta to fan out for a message about a followed item, or null when it is not news. */
  delta(change: ItemChange): ItemDelta | null {
    const last = this.versions.get(change.dataId);
    if (last !== undefined && change.version <= last) return null;
    this.versions.set(change.dataId, change.version);
    let frame: string;
    if (change.action === 'update') {
      frame = itemUpdateFrame(change.dataId, change.data, change.version);
      this.frames.set(change.dataId, { version: change.version, frame });
    } else {
      frame = itemDeleteFrame(change.dataId, change.version);
      this.frames.delete(change.dataId);
    }
    return { dataId: change.dataId, action: change.action, version: change.version, position: change.position, frame: withId(change.position, frame) };
  }

  /**
   * The update frame of a record a snapshot read: the kept one when it has this version, else a
   * new one, kept (when the item is `followed` and the record is newer) for the next snapshots.
   */
  snapshotFrame(record: SnapshotItem, followed: boolean): string {
    const cached = this.frames.get(record.dataId);
    if (cached && cached.version === record.version) return cached.frame;
    const frame = itemUpdateFrame(record.dataId, record.data, record.version);
    if (followed && (!cached || record.version > cached.version)) this.frames.set(record.dataId, { version: record.version, frame });
    return frame;
  }

  /** No stream follows the item any more. */
  forget(dataId: string): void {
    this.versions.delete(dataId);
    this.frames.delete(dataId);
  }
}
