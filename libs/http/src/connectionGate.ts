import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddress, tooManyConnectionsMessage } from './connectionLimit.js';
import { statusName } from './statusName.js';

/**
 * A per-address connection cap decided outside this process: by the primary of the API workers,
 * which sees the connections of every worker sharing the port (docs/security.md).
 */
export interface ConnectionGate {
  /** True when one more connection from `address` is within the cap (counted when true). */
  admit(address: string): Promise<boolean>;
  /** The connection of an admitted `admit` closed. */
  release(address: string): void;
}

const refuse = (res: ServerResponse, max: number): void => {
  const body = JSON.stringify({ error: statusName(429), message: tooManyConnectionsMessage(max) });
  res.writeHead(429, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '1', Connection: 'close' });
  res.end(body);
};

/**
 * The cap of `limitConnectionsPerAddress` through a gate: each connection asks it once, and its
 * requests wait for that verdict (a refused connection answers 429 JSON with `Retry-After: 1` and
 * closes, as the local cap does). A gate that cannot answer admits: an unreachable primary must
 * not refuse every client (the cap protects against one address, not against outages).
 */
export const gateConnectionsPerAddress = (gate: ConnectionGate, max: number) => {
  const verdicts = new WeakMap<Socket, boolean | Promise<boolean>>();
  const decided = (socket: Socket, address: string, admitted: boolean, counted = admitted): boolean => {
    verdicts.set(socket, admitted);
    if (counted) {
      if (socket.destroyed) gate.release(address);
      else socket.once('close', () => gate.release(address));
    }
    return admitted;
  };
  const serve = (handler: RequestListener, req: IncomingMessage, res: ServerResponse, admitted: boolean): void => {
    if (admitted) void handler(req, res);
    else refuse(res, max);
  };
  return {
    onConnection(socket: Socket): void {
      const address = clientAddress(socket);
      verdicts.set(socket, gate.admit(address).then((admitted) => decided(socket, address, admitted), () => decided(socket, address, true, false)));
    },
    requests(handler: RequestListener): RequestListener {
      return (req, res) => {
        const verdict = verdicts.get(req.socket) ?? true;
        if (typeof verdict === 'boolean') serve(handler, req, res, verdict);
        else void verdict.then((admitted) => serve(handler, req, res, admitted));
      };
    },
  };
};
