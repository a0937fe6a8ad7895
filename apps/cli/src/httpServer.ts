import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** Listens with a request handler; resolves once the port is bound. */
export const listen = (handler: RequestListener, host: string, port: number): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.keepAliveTimeout = 5_000;
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
