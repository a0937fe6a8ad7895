import { changeKey, type ChangeMessage } from '../changeStream.js';

/**
 * The partition of every change (docs/kafka.md): one, so consumers see the changes in publish
 * order, which is position order; every API node reads every change anyway.
 */
export const CHANGE_PARTITION = 0;

/** The Kafka record of a change: in partition 0 explicitly, keyed by its entity (for compaction and tools). */
export function encodeChangeMessage(message: ChangeMessage): { key: string; value: string; partition: number } {
  return { key: changeKey(message), value: JSON.stringify(message), partition: CHANGE_PARTITION };
}

/** The changes of a batch of record values; empty values are skipped, values that are not JSON go to `onInvalid`. */
export function decodeChangeMessages(values: readonly (Buffer | null)[], onInvalid: (error: unknown) => void): ChangeMessage[] {
  const parsed: ChangeMessage[] = [];
  for (const value of values) {
    if (!value) continue;
    try {
      parsed.push(JSON.parse(value.toString('utf8')) as ChangeMessage);
    } catch (error) {
      onInvalid(error);
    }
  }
  return parsed;
}
