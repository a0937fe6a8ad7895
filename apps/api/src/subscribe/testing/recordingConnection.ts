import type { SseConnection } from '../sseConnection.js';
import type { ReconnectReason } from '../sseFrames.js';

/** An SseConnection that records what it is given, for the hub's unit tests (no socket). */
export interface RecordingConnection extends SseConnection {
  /** Every frame written, in order. */
  readonly frames: string[];
  /** Frames written inside `snapshot`. */
  readonly snapshotFrames: string[];
  /** The `end` calls, in order. */
  readonly ends: { reason: ReconnectReason | null; retryAfterMs: number | undefined }[];
  /** Ends the stream as a client that goes away would. */
  clientCloses(): void;
}

export const recordingConnection = (): RecordingConnection => {
  const frames: string[] = [];
  const snapshotFrames: string[] = [];
  const ends: RecordingConnection['ends'] = [];
  const listeners: ((reason: ReconnectReason | 'client_closed') => void)[] = [];
  let inSnapshot = false;
  let endReason: ReconnectReason | 'client_closed' | null = null;
  const finish = (reason: ReconnectReason | 'client_closed'): void => {
    endReason = reason;
    for (const listener of listeners.splice(0)) listener(reason);
  };
  return {
    frames,
    snapshotFrames,
    ends,
    write(frame) {
      if (endReason !== null) return;
      frames.push(frame);
      if (inSnapshot) snapshotFrames.push(frame);
    },
    snapshot(apply) {
      inSnapshot = true;
      try {
        apply();
      } finally {
        inSnapshot = false;
      }
    },
    end(reason, retryAfterMs) {
      ends.push({ reason, retryAfterMs });
      if (endReason === null) finish(reason ?? 'client_closed');
    },
    clientCloses: () => finish('client_closed'),
    bufferedBytes: 0,
    boundedBytes: 0,
    peakBufferedBytes: 0,
    get ended() {
      return endReason !== null;
    },
    get endReason() {
      return endReason;
    },
    onEnd(listener) {
      if (endReason !== null) listener(endReason);
      else listeners.push(listener);
    },
  };
};
