/**
 * The process is leaving (SIGTERM): set once, read by /readyz (503 at once) and by whatever must
 * stop taking new work (docs/operations.md, "Graceful shutdown"). One per process, passed down.
 */
export interface DrainSignal {
  readonly draining: boolean;
  begin(): void;
}

export const createDrainSignal = (): DrainSignal => {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    begin() {
      draining = true;
    },
  };
};
