import { ServiceUnavailableError, ValidationError } from '@pubstream/domain';
import { parsePosition } from '@pubstream/read-model';
import type { PositionWaiter } from './positionWaiter.js';

export const INVALID_POSITION = 'Invalid position';

/** A position from a query parameter or header: undefined when absent, else a number or 400 `Invalid position`. */
export const positionParam = (value: string | string[] | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const position = typeof value === 'string' ? parsePosition(value) : null;
  if (position === null) throw new ValidationError(INVALID_POSITION);
  return position;
};

export interface MinPositionGate {
  /** Waits until this node has applied `?minPosition=` (when given): else 503 with Retry-After. */
  awaitQuery(query: Record<string, string | string[] | undefined>): Promise<void>;
  /** Waits until this node has applied `position`: else 503 with Retry-After. */
  awaitPosition(position: number): Promise<void>;
}

/**
 * Read-your-writes on the public reads (docs/public-api.md, minPosition): `?minPosition=P` waits,
 * at most `timeoutMs`, until this node's read model has applied P. A read without it never waits
 * and never touches the waiter.
 */
export const createMinPositionGate = (waiter: PositionWaiter, timeoutMs: number): MinPositionGate => {
  const awaitPosition = async (position: number): Promise<void> => {
    if (await waiter.reached(position, timeoutMs)) return;
    throw new ServiceUnavailableError(`Position ${position} is not applied on this node yet (waited ${timeoutMs} ms); retry shortly`);
  };
  return {
    awaitPosition,
    async awaitQuery(query) {
      const position = positionParam(query.minPosition);
      if (position !== undefined) await awaitPosition(position);
    },
  };
};
