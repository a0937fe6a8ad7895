/**
 * Positions on the wire (docs/public-api.md, Positions): a decimal string of 1–15 digits, so that
 * every value is an exact JavaScript number. Anything else is 400 `Invalid position`.
 */
const POSITION = /^[0-9]{1,15}$/;

export const isPosition = (text: string): boolean => POSITION.test(text);

/** The position a query parameter or header names, or null when it is malformed. */
export const parsePosition = (text: string): number | null => (POSITION.test(text) ? Number(text) : null);
