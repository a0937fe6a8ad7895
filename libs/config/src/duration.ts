/** A duration as RESUME_WINDOW takes it: whole milliseconds, or a whole number with s, m, h or d. */
const DURATION = /^([0-9]{1,12})(ms|s|m|h|d)?$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of `90s`, `30m`, `24h`, `7d` or `5000`; null when malformed or zero. */
export const parseDurationMs = (text: string): number | null => {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[(match[2] ?? 'ms') as keyof typeof UNIT_MS];
  return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
};
