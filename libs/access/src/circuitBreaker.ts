/**
 * Whether to call a backend that just failed. Closed: every call goes through. After a failure it
 * opens for `openMs`: calls are refused at once (the caller uses its fallback). Then one call, and
 * only one, probes the backend: its success closes the breaker, its failure opens it again. So a
 * frozen backend costs one call's timeout per `openMs`, not one per request.
 */
export interface CircuitBreaker {
  /** True when this call may go to the backend (closed, or the one probe). */
  allow(): boolean;
  succeeded(): void;
  /** Returns true when this failure opened a closed breaker (worth one log line). */
  failed(): boolean;
}

export const createCircuitBreaker = (options: { openMs: number; nowMs?: () => number }): CircuitBreaker => {
  const nowMs = options.nowMs ?? (() => performance.now());
  let state: 'closed' | 'open' | 'probing' = 'closed';
  let openUntil = 0;
  return {
    allow() {
      if (state === 'closed') return true;
      if (state === 'probing' || nowMs() < openUntil) return false;
      state = 'probing';
      return true;
    },
    succeeded() {
      state = 'closed';
    },
    failed() {
      const opened = state === 'closed';
      state = 'open';
      openUntil = nowMs() + options.openMs;
      return opened;
    },
  };
};
