import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** A listener's connections during a graceful stop (docs/operations.md, "Graceful shutdown"). */
export interface ConnectionDrain {
  /**
   * From now on no connection is kept alive: idle ones are closed at once; a response whose
   * headers are still to be sent goes out with `Connection: close` and its connection closes after
   * it; a response already under way (a stream, a long body) has its connection closed once it
   * ends. Requests that arrive meanwhile on open connections are answered the same way. The
   * client's next request opens a new connection, which a load balancer sends elsewhere.
   */
  begin(): void;
}

/**
 * Node keeps serving kept-alive connections after `server.close()` (which only closes the ones
 * idle at that moment) and keeps announcing `Connection: keep-alive`: a client's next request, an
 * EventSource's reconnection included, then lands on the leaving node again. This closes each
 * connection right after the response it is busy with.
 */
export const drainConnectionsOnClose = (server: Server): ConnectionDrain => {
  const busy = new Map<ServerResponse, IncomingMessage>();
  let draining = false;

  const closeAfter = (req: IncomingMessage, res: ServerResponse): void => {
    if (res.writableFinished) return;
    // Node then sends `Connection: close` and ends the connection after this response.
    if (!res.headersSent) res.shouldKeepAlive = false;
    // Under way with keep-alive already promised, or an explicit `Connection: keep-alive` set later.
    res.once('finish', () => {
      if (!req.socket.destroyed) req.socket.end();
    });
  };

  // Before the app's own listener, so that a response is marked before anything is sent.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (draining) return closeAfter(req, res);
    busy.set(res, req);
    res.once('close', () => busy.delete(res));
  });

  return {
    begin() {
      if (draining) return;
      draining = true;
      for (const [res, req] of busy) closeAfter(req, res);
      busy.clear();
      server.closeIdleConnections();
    },
  };
};
