import { ValidationError } from '@pubstream/domain';
import { parsePosition } from '@pubstream/read-model';

type QueryValue = string | string[] | undefined;

const parse = (value: string): number => {
  const position = parsePosition(value);
  if (position === null) throw new ValidationError('Invalid position');
  return position;
};

/**
 * The position a stream resumes from (docs/subscriptions.md, "Resume"): the `Last-Event-ID` header
 * when present, else the `from` query parameter, else null (a fresh start). The header wins: a
 * plain EventSource opened with `?from=P` keeps that URL on every reconnect, while the header it
 * sends carries the last id it received (docs/decisions.md). Each present value must be a decimal
 * position of 1–15 digits, else ValidationError `Invalid position` (400); an empty header is absent,
 * as EventSource sends none until it has an id.
 */
export const resumePosition = (header: QueryValue, from: QueryValue): number | null => {
  const headerValue = Array.isArray(header) ? header.join(',') : header;
  const fromValue = Array.isArray(from) ? from.join(',') : from;
  const fromPosition = fromValue === undefined ? null : parse(fromValue);
  if (headerValue !== undefined && headerValue.trim() !== '') return parse(headerValue.trim());
  return fromPosition;
};
