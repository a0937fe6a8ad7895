import { createServer, type RequestListener, type Server } from 'node:http';
import { answerClientError } from './clientError.js';
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
}

/**
 * A node:http server with the edge applied (docs/security.md): header and request timeouts
 * checked at least every second, JSON answers for what Node refuses itself, and the
 * per-address connection cap. Both the public and the admin listener are built with it.
 */
export const createEdgeServer = (handler: RequestListener, settings: EdgeServerSettings): Server => {
  const shortest = Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs);
  const server = createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default), so it bounds their precision.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(shortest / 10))),
    },
    handler,
  );
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  server.on('clientError', answerClientError);
  limitConnectionsPerAddress(server, settings.maxConnectionsPerAddress);
  return server;
};
