import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { endSocketWith } from './clientError.js';
import { rawJsonResponse } from './rawJsonResponse.js';

/** The client address a connection counts against: IPv4-mapped IPv6 addresses as plain IPv4. */
export const clientAddress = (socket: Pick<Socket, 'remoteAddress'>): string => {
  const address = socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
};

/** What a connection over MAX_CONNECTIONS_PER_ADDRESS is told (docs/security.md). */
export const tooManyConnectionsMessage = (max: number): string => `Too many open connections from your address (at most ${max})`;

/** Counts open connections per address. `admit` is false once `max` are open (0 = no cap). */
export const createConnectionCounter = (max: number) => {
  const open = new Map<string, number>();
  return {
    admit(address: string): boolean {
      const count = open.get(address) ?? 0;
      if (max > 0 && count >= max) return false;
      open.set(address, count + 1);
      return true;
    },
    release(address: string): void {
      const count = (open.get(address) ?? 1) - 1;
      if (count <= 0) open.delete(address);
      else open.set(address, count);
    },
    count: (address: string): number => open.get(address) ?? 0,
  };
};

/**
 * Caps concurrent connections per client address (docs/security.md). A connection over the cap
 * is answered `429 {error, message}` with `Retry-After: 1` and closed, before any request on it
 * is parsed or handled. Node's own `connection` listener (which attaches the HTTP parser) runs
 * only for admitted sockets, so it is moved behind the check.
 */
export const limitConnectionsPerAddress = (server: Server, max: number): void => {
  if (max <= 0) return;
  const counter = createConnectionCounter(max);
  const refusal = rawJsonResponse(429, tooManyConnectionsMessage(max), { 'Retry-After': '1' });
  const inner = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    if (!counter.admit(address)) {
      // Read and drop whatever the client sends, so closing does not reset the answer away.
      socket.resume();
      endSocketWith(socket, refusal);
      return;
    }
    socket.once('close', () => counter.release(address));
    for (const listener of inner) listener.call(server, socket);
  });
};
