import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '@pubstream/config';
import { createEdgeServer, type EdgeServerSettings } from '@pubstream/http';

export interface RunningServer {
  readonly server: Server;
  /** http://host:port with the port actually bound (port 0 picks a free one). */
  readonly url: string;
  /** Stops accepting, lets in-flight requests finish for up to `graceMs`, then cuts the rest. */
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

/** Listens with a request handler behind the shared HTTP edge; resolves once the port is bound. */
export const listen = (handler: RequestListener, host: string, port: number, settings: EdgeServerSettings): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const server = createEdgeServer(handler, settings);
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
            const timer = setTimeout(() => server.closeAllConnections(), graceMs);
            timer.unref();
            server.close(() => {
              clearTimeout(timer);
              done();
            });
            server.closeIdleConnections();
          });
          return closing;
        },
      });
    });
  });
