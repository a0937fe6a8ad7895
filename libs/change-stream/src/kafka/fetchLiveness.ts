/**
 * Whether a consumer is receiving what the broker has (for /readyz): healthy while fetches keep
 * answering. kafkajs fetches every few hundred milliseconds even when the topic is quiet, so a gap
 * of several seconds means the broker is gone or unreachable, or the consumer crashed.
 */
export interface FetchLiveness {
  /** A fetch (or a group join, after which fetches resume) answered. */
  seen(): void;
  /** Why messages may not be arriving now; null when fetches answer. */
  problem(): string | null;
}

export const createFetchLiveness = (options: { readonly staleAfterMs: number; readonly nowMs?: () => number }): FetchLiveness => {
  const nowMs = options.nowMs ?? (() => performance.now());
  let last = nowMs();
  return {
    seen() {
      last = nowMs();
    },
    problem() {
      const silentMs = nowMs() - last;
      return silentMs > options.staleAfterMs ? `no answer from Kafka for ${(silentMs / 1000).toFixed(1)} s` : null;
    },
  };
};
