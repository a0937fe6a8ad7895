import type { Lease } from '../projectionStore.js';

/**
 * What the lease key holds while `lease` is current: `"<token> <holder>"`. Fenced calls compare
 * this whole string, so neither a token number nor a holder name alone passes (docs/read-models.md).
 */
export const leaseValueOf = (lease: Lease): string => `${lease.token} ${lease.holder}`;
