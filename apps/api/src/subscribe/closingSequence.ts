import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FrameQueue } from './frameQueue.js';
import { SLICE_BYTES } from './socketWriter.js';

/**
 * Leaves in `queue` what still goes out when a stream ends, then its last message (`reconnect`),
 * built by `lastFrame`, when one may follow. A frame sent in part cannot be followed by another
 * message: the stream just closes, and the client reconnects after its `retry:`. Frames queued in
 * this turn would have been written already had they not been batched, so they go; frames held
 * back by back-pressure, or a large remainder (a snapshot), are dropped: the client gets a fresh
 * snapshot when it reconnects.
 */
export const queueClosingFrames = (
  queue: FrameQueue,
  waitingForDrain: boolean,
  lastFrame: (() => string) | null,
  byteLength: (frame: string) => number,
): void => {
  const partial = queue.partial;
  if (waitingForDrain || partial || queue.bytes > SLICE_BYTES) queue.clear();
  if (lastFrame !== null && !partial) {
    const frame = lastFrame();
    queue.push(frame, byteLength(frame), 'snapshot');
  }
};

/**
 * Closes an ended stream's connection once its response is out (docs/subscriptions.md, "Closed, not
 * kept alive"). A stream's connection is never reused: the client's next request (its reconnection)
 * opens a new connection, one that a load balancer can send to another node, and a client that
 * stopped reading cannot keep the socket. If the client has not taken everything and closed within
 * `graceMs`, the socket is destroyed. Returns the grace timer (for a response without a socket,
 * whose `close` event must clear it).
 */
export const closeAfterResponse = (res: ServerResponse, socket: Socket | null, graceMs: number): NodeJS.Timeout | null => {
  let graceTimer: NodeJS.Timeout | null = null;
  if (socket === null) {
    if (!res.writableFinished && !res.destroyed) graceTimer = setTimeout(() => res.destroy(), graceMs);
  } else if (!socket.destroyed) {
    if (res.writableFinished) socket.end();
    else res.once('finish', () => socket.end());
    const timer = setTimeout(() => socket.destroy(), graceMs);
    socket.once('close', () => clearTimeout(timer));
    graceTimer = timer;
  }
  graceTimer?.unref();
  return graceTimer;
};
