/** The streams this node holds slots for, by API key: what its heartbeat keeps alive. */
export interface HeldStreams {
  add(keyId: string, streamId: string): void;
  remove(keyId: string, streamId: string): void;
  /** Per key, its streams, in chunks of at most `chunkSize` (one refresh call each; default: one chunk per key). */
  chunks(chunkSize?: number): { keyId: string; streamIds: string[] }[];
}

/** Creates an empty {@link HeldStreams}. */
export const createHeldStreams = (): HeldStreams => {
  const held = new Map<string, Set<string>>();
  return {
    add(keyId, streamId) {
      let mine = held.get(keyId);
      if (!mine) held.set(keyId, (mine = new Set()));
      mine.add(streamId);
    },
    remove(keyId, streamId) {
      const mine = held.get(keyId);
      mine?.delete(streamId);
      if (mine?.size === 0) held.delete(keyId);
    },
    chunks(chunkSize = Number.POSITIVE_INFINITY) {
      const chunks: { keyId: string; streamIds: string[] }[] = [];
      for (const [keyId, streams] of held) {
        const streamIds = [...streams];
        for (let start = 0; start < streamIds.length; start += chunkSize) chunks.push({ keyId, streamIds: streamIds.slice(start, start + chunkSize) });
      }
      return chunks;
    },
  };
};
