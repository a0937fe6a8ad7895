import { dataIdSchema, itemDataSchema, isPubstreamError, type ItemData } from '@pubstream/domain';
import { describeIssues, echoInput, parseJsonText } from '@pubstream/http';
import { z } from 'zod';

const importLineSchema = z.strictObject({ dataId: dataIdSchema, data: itemDataSchema });

/** One NDJSON line read as an item, or why it cannot be one (with its dataId when it has one). */
export type ImportLine = { readonly ok: true; readonly dataId: string; readonly data: ItemData } | { readonly ok: false; readonly message: string; readonly dataId?: string };

/**
 * Parses one import line `{"dataId": "...", "data": {...}}` with the same rules as a JSON body
 * (docs/security.md): nesting past 64 levels and `__proto__` keys are refused, so a hostile line
 * fails alone and nothing later recurses into it. Pure.
 */
export const parseImportLine = (text: string): ImportLine => {
  let value: unknown;
  try {
    value = parseJsonText(text, { malformed: 'Malformed JSON' });
  } catch (error) {
    if (isPubstreamError(error)) return { ok: false, message: error.message };
    throw error;
  }
  const parsed = importLineSchema.safeParse(value);
  if (parsed.success) return { ok: true, dataId: parsed.data.dataId, data: parsed.data.data };
  const dataId = (value as { dataId?: unknown } | null)?.dataId;
  const message = describeIssues(parsed.error);
  return typeof dataId === 'string' ? { ok: false, message, dataId: echoInput(dataId) } : { ok: false, message };
};
