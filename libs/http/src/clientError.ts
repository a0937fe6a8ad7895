import type { Duplex } from 'node:stream';
import { rawJsonResponse } from './rawJsonResponse.js';

/** How long a socket answered by Node-level error may linger so the client reads the answer. */
const CLOSE_GRACE_MS = 1_000;

/** The status and message for an error Node's HTTP parser or timers raise on a connection. */
export const clientErrorAnswer = (code: string | undefined): { status: number; message: string } => {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'Request line and headers are larger than 16 KiB' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'Chunk extensions are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request was not received in time' };
    default:
      return { status: 400, message: 'Malformed HTTP request' };
  }
};

/** Ends `socket` after `answer`, and destroys it if the client does not close within a grace period. */
export const endSocketWith = (socket: Duplex, answer: string): void => {
  socket.on('error', () => undefined);
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.end(answer);
};

/**
 * The `clientError` listener (docs/security.md): answers what Node's parser refuses (400, 413,
 * 431) and its header/request timeouts (408) with `{error, message}` JSON instead of an empty
 * body. A connection whose answer has already started is cut, since nothing can be added to it.
 */
export const answerClientError = (error: NodeJS.ErrnoException, socket: Duplex): void => {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const { status, message } = clientErrorAnswer(error.code);
  endSocketWith(socket, rawJsonResponse(status, message));
};
