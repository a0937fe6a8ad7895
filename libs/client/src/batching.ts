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

/** Merges batch results in chunk order: data and notFound concatenated, found summed. */
export function mergeBatchResults(results: readonly BatchResult[]): BatchResult {
  return {
    data: results.flatMap((r) => r.data),
    found: results.reduce((sum, r) => sum + r.found, 0),
    notFound: results.flatMap((r) => r.notFound),
  };
}
