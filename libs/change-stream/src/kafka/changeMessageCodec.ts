import { changeKey, type ChangeMessage } from '../changeStream.js';

/** The Kafka record of a change: keyed by its entity, so one entity's changes keep their order. */
export function encodeChangeMessage(message: ChangeMessage): { key: string; value: string } {
  return { key: changeKey(message), value: JSON.stringify(message) };
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
