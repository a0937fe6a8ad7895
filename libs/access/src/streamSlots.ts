/**
 * The cap on concurrent `/subscribe` streams per API key, counted across every API node
 * (docs/subscriptions.md, "Caps"). Each open stream holds a slot; a node keeps its slots alive by
 * calling `refresh()` on a heartbeat, so the slots of a node that dies expire after `ttlMs` and a
 * crashed node frees its streams within seconds. Adapters: memory (one process) and Redis.
 */
export interface StreamSlots {
  /**
   * Takes a slot for `streamId` under `keyId` when fewer than `limit` are held across all nodes.
   * False when the key is at its cap. Taking a slot this node already holds is true and free.
   */
  acquire(keyId: string, streamId: string, limit: number): Promise<boolean>;
  /** Gives a slot back; releasing one that is not held changes nothing. */
  release(keyId: string, streamId: string): Promise<void>;
  /** Extends the life of every slot this node holds by the TTL: the node's heartbeat. */
  refresh(): Promise<void>;
  /** Slots held for the key across all nodes, expired ones excluded. */
  count(keyId: string): Promise<number>;
}

/** How long a slot lives without a refresh. Refresh at least three times per TTL. */
export const DEFAULT_STREAM_SLOT_TTL_MS = 15_000;

/** The 429 message of a key at its cap. */
export const tooManyStreamsMessage = (planName: string, limit: number): string =>
  `Too many concurrent streams for this API key: the ${planName} plan allows ${limit}. Close a stream before opening another.`;
