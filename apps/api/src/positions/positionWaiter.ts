/**
 * Waits, bounded, until this node's read model has applied a position (docs/public-api.md,
 * minPosition): `?minPosition=` on reads, resumes ahead of the node. Embedded: the in-process
 * projector's waitFor; distributed: a poller of ReadModel.appliedPosition() (pollingPositionWaiter.ts).
 */
export interface PositionWaiter {
  /** true once the node's applied position is ≥ `position`; false when `timeoutMs` passes first. */
  reached(position: number, timeoutMs: number): Promise<boolean>;
  /** Stops polling and answers every waiter with what it has. */
  close(): void;
}
