import { ValidationError } from '@pubstream/domain';
import type { z } from 'zod';
import { echoInput } from './echoInput.js';

const ISSUE_MESSAGE_CHARS = 200;

/** The first few zod issues as one line; keys and values they quote are cut short. */
export const describeIssues = (error: z.ZodError): string =>
  error.issues
    .slice(0, 5)
    .map((issue) => {
      const message = echoInput(issue.message, ISSUE_MESSAGE_CHARS);
      return issue.path.length > 0 ? `${issue.path.map((part) => echoInput(String(part))).join('.')}: ${message}` : message;
    })
    .join('; ');

/** Parses a value with a zod schema; a mismatch is 400 with the first few issues named. */
export const parseWith = <T>(schema: z.ZodType<T>, value: unknown): T => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(describeIssues(parsed.error));
  return parsed.data;
};
