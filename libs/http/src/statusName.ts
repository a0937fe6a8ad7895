import { STATUS_CODES } from 'node:http';
import { STATUS_TEXT } from '@pubstream/domain';

/** The status name used as the `error` field of every JSON error body (`Payload Too Large`). */
export const statusName = (status: number): string => STATUS_TEXT[status] ?? STATUS_CODES[status] ?? 'Error';
