import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { answerClientError } from './clientError.js';
import { gateConnectionsPerAddress, type ConnectionGate } from './connectionGate.js';
import { limitConnectionsPerAddress } from './connectionLimit.js';

/** The node:http settings of a listener (docs/operations.md, HTTP_* variables). */
export interface EdgeServerSettings {
  /** The whole header block must arrive within this; 408 JSON after. */
  readonly headersTimeoutMs: number;
  /**
   * The whole request (headers and body) must arrive within this; 408 JSON after. Node stops the
   * clock once the request is received, so a long response (an SSE stream) is never cut by it.
   */
  readonly requestTimeoutMs: number;
  /** Idle time a kept-alive connection waits for its next request. */
  readonly keepAliveTimeoutMs: number;
  /** Concurrent connections per client address; 0 = no cap. */
  readonly maxConnectionsPerAddress: number;
  /**
   * Where the cap is counted when other processes share the port (the API workers' primary);
   * absent: in this process.
   */
  readonly connectionGate?: ConnectionGate;
}

/** How long a connection may go on sending a body after its answer was sent without reading it. */
const UNREAD_BODY_LINGER_MS = 5_000;

/**
 * A request answered before its body was read (401, 404, 413, 415, …) keeps its connection only
 * briefly: long enough for the client to read the answer, not for a slow body to hold it until
 * the request timeout.
 */
const closeAfterUnreadBody = (req: IncomingMessage, res: ServerResponse): void => {
  res.once('finish', () => {
    if (req.complete) return;
    const timer = setTimeout(() => req.socket?.destroy(), UNREAD_BODY_LINGER_MS);
    timer.unref();
    // The body ended in time (drained): the connection may serve its next request.
    const keep = () => clearTimeout(timer);
    req.once('end', keep);
    req.once('close', keep);
  });
};

/**
 * A node:http server with the edge applied (docs/security.md): header and request timeouts
 * checked at least every second, JSON answers for what Node refuses itself, bodies left unread
 * after an early answer cut after a few seconds, and the per-address connection cap. Both the
 * public and the admin listener are built with it.
 */
export const createEdgeServer = (handler: RequestListener, settings: EdgeServerSettings): Server => {
  const shortest = Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs);
  const gate = settings.connectionGate && settings.maxConnectionsPerAddress > 0 ? gateConnectionsPerAddress(settings.connectionGate, settings.maxConnectionsPerAddress) : null;
  const server = createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default), so it bounds their precision.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(shortest / 10))),
    },
    gate ? gate.requests(handler) : handler,
  );
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  server.on('clientError', answerClientError);
  server.on('request', closeAfterUnreadBody);
  if (gate) server.on('connection', gate.onConnection);
  else limitConnectionsPerAddress(server, settings.maxConnectionsPerAddress);
  return server;
};
