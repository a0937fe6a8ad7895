import type { BatchResult } from './types.js';

/** Most dataIds the server accepts in one batch request. */
export const maxBatchSize = 100;

/** Splits ids into chunks of at most `size`, dropping repeats (the server answers each id once). */
export function splitIntoBatches(dataIds: readonly string[], size = maxBatchSize): string[][] {
  const unique = [...new Set(dataIds)];
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += size) chunks.push(unique.slice(i, i + size));
  return chunks;
}

/**
 * Merges batch results in chunk order: data and notFound concatenated, found summed, and the
 * lowest position (each chunk is complete up to its own; all of them up to the lowest).
 */
export function mergeBatchResults(results: readonly BatchResult[]): BatchResult {
  const merged: BatchResult = {
    data: results.flatMap((r) => r.data),
    found: results.reduce((sum, r) => sum + r.found, 0),
    notFound: results.flatMap((r) => r.notFound),
  };
  const positions = results.map((r) => r.position);
  if (positions.length > 0 && positions.every((p) => p !== undefined)) merged.position = Math.min(...(positions as number[]));
  return merged;
}
