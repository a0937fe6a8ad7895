/** The deltas the hub hands its streams (docs/subscriptions.md, "Fanout"). */

/** An item change, with its frame (`id:` included) built once by the hub for every subscriber. */
export interface ItemDelta {
  readonly dataId: string;
  readonly action: 'update' | 'delete';
  readonly version: number;
  /** The change's log position: the frame's `id`. */
  readonly position: number;
  readonly frame: string;
}

/**
 * A computed page 1 of a collection. `seq` orders page reads: a read with a higher seq was issued
 * later, so it reflects at least as many writes.
 */
export interface PageDelta {
  readonly slug: string;
  readonly seq: number;
  readonly json: string;
  readonly frame: string;
}
