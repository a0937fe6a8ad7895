import type { RecordedEvent } from '@pubstream/event-store';
import type { HistoryRecording } from '@pubstream/read-model';

/** RESUME_WINDOW's default: 24 h (docs/operations.md). */
export const DEFAULT_RESUME_WINDOW_MS = 86_400_000;

/**
 * How a batch ending with `last` is recorded in the change history (docs/read-models.md, "Change
 * history"): at the time the log recorded it, so the history covers the window of the log's own
 * time even while a replay (recovery, rebuild) writes it minutes later. A batch older than the
 * window is not recorded at all: it would be trimmed at once. The history then begins at the first
 * recorded batch, which the floor says.
 */
export const historyRecordingFor = (last: RecordedEvent, now: Date, windowMs: number): HistoryRecording | undefined =>
  last.recordedAt.getTime() < now.getTime() - windowMs ? undefined : { at: last.recordedAt, windowMs };
