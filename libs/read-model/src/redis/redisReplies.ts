import type { Reply } from './redisCommands.js';

/** A JSON record stored as a string, or null for a missing key or field. */
export const parseRecord = <T>(reply: Reply): T | null => (typeof reply === 'string' ? (JSON.parse(reply) as T) : null);

/** The JSON records of an HVALS reply. */
export const parseRecords = <T>(reply: Reply): T[] => (reply as Reply[]).map((json) => parseRecord<T>(json) as T);

/** The field/value pairs of an HGETALL reply: RESP3 answers with a map, RESP2 with a flat list. */
export const hashEntries = (reply: Reply): [string, Reply][] => {
  if (Array.isArray(reply)) return Array.from({ length: reply.length / 2 }, (_, j) => [String(reply[2 * j]), reply[2 * j + 1]]);
  if (reply instanceof Map) return [...reply.entries()].map(([k, v]) => [String(k), v]);
  return Object.entries((reply ?? {}) as Record<string, Reply>);
};
