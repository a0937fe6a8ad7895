import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '@pubstream/config';
import { createEdgeServer, drainConnectionsOnClose, type DrainSignal, type EdgeServerSettings } from '@pubstream/http';

export interface RunningServer {
  readonly server: Server;
  /** http://host:port with the port actually bound (port 0 picks a free one). */
  readonly url: string;
  /**
   * The drain (docs/operations.md, "Graceful shutdown"): the drain signal is set (/readyz 503),
   * the listener stops accepting, idle connections close, every busy one closes after its current
   * response (`Connection: close` where its headers are still to be sent); in-flight requests may
   * finish for up to `graceMs`, then the rest is cut. Idempotent: later calls return the same promise.
   */
  close(graceMs: number): Promise<void>;
}

const urlHost = (host: string): string => {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return reachable.includes(':') ? `[${reachable}]` : reachable;
};

/** The node:http settings of the public or the admin listener (docs/operations.md). */
export const edgeSettings = (config: Config, listener: 'public' | 'admin'): EdgeServerSettings => ({
  headersTimeoutMs: config.httpHeadersTimeoutMs,
  // Imports stream large files to the admin port; public bodies are at most 1 MiB.
  requestTimeoutMs: listener === 'admin' ? config.adminRequestTimeoutMs : config.httpRequestTimeoutMs,
  keepAliveTimeoutMs: config.httpKeepAliveTimeoutMs,
  maxConnectionsPerAddress: config.maxConnectionsPerAddress,
});

/**
 * How long a stopping process lets in-flight requests finish: SHUTDOWN_TIMEOUT_MS less what closing
 * the adapters may take afterwards (a fifth, at most 2 s), so that the whole stop fits in
 * SHUTDOWN_TIMEOUT_MS, after which runUntilSignal exits anyway.
 */
export const drainGraceMs = (config: Pick<Config, 'shutdownTimeoutMs'>): number =>
  Math.max(0, config.shutdownTimeoutMs - Math.min(2_000, Math.floor(config.shutdownTimeoutMs / 5)));

/** Listens with a request handler behind the shared HTTP edge; resolves once the port is bound. */
export const listen = (handler: RequestListener, host: string, port: number, settings: EdgeServerSettings, drain?: DrainSignal): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const server = createEdgeServer(handler, settings);
    const connections = drainConnectionsOnClose(server);
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const url = `http://${urlHost(host)}:${address.port}`;
      let closing: Promise<void> | null = null;
      resolve({
        server,
        url,
        close(graceMs) {
          closing ??= new Promise<void>((done) => {
            drain?.begin();
            const timer = setTimeout(() => server.closeAllConnections(), graceMs);
            timer.unref();
            server.close(() => {
              clearTimeout(timer);
              done();
            });
            connections.begin();
          });
          return closing;
        },
      });
    });
  });
