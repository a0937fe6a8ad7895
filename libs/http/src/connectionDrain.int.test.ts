import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainConnectionsOnClose } from './connectionDrain.js';

// A real node:http server on loopback: what is tested is what Node does with the sockets.

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server whose handler the test drives: each request waits until the test answers it. */
const startServer = async () => {
  const pending: { req: IncomingMessage; res: ServerResponse }[] = [];
  const arrived: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    pending.push({ req, res });
    for (const wake of arrived.splice(0)) wake();
  });
  server.keepAliveTimeout = 30_000;
  const drain = drainConnectionsOnClose(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const nextRequest = async () => {
    while (pending.length === 0) await new Promise<void>((resolve) => arrived.push(resolve));
    return pending.shift()!;
  };
  return { server, drain, port: (server.address() as AddressInfo).port, nextRequest };
};

const get = (port: number, agent: http.Agent) =>
  new Promise<{ status: number; connection: string | undefined; body: string; socket: Socket }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body, socket: request.socket! }));
    });
    request.on('error', reject);
  });

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

describe('drainConnectionsOnClose', () => {
  it('keeps connections alive until the drain begins', async () => {
    const { port, nextRequest } = await startServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = get(port, agent);
    (await nextRequest()).res.end('one');
    expect((await first).connection).toBe('keep-alive');
    const second = get(port, agent);
    (await nextRequest()).res.end('two');
    expect((await second).socket).toBe((await first).socket);
    agent.destroy();
  });

  it('closes idle kept-alive connections at once', async () => {
    const { port, drain, nextRequest } = await startServer();
    const agent = new http.Agent({ keepAlive: true });
    const answer = get(port, agent);
    (await nextRequest()).res.end('one');
    const { socket } = await answer;
    drain.begin();
    await closed(socket);
    agent.destroy();
  });

  it('answers a request in flight with Connection: close, then closes its connection', async () => {
    const { port, drain, nextRequest } = await startServer();
    const agent = new http.Agent({ keepAlive: true });
    const answer = get(port, agent);
    const { res } = await nextRequest();
    drain.begin();
    res.end('finished');
    const { status, connection, body, socket } = await answer;
    expect({ status, connection, body }).toEqual({ status: 200, connection: 'close', body: 'finished' });
    await closed(socket);
    agent.destroy();
  });

  it('lets a response under way finish, then closes its connection although it promised keep-alive', async () => {
    const { port, drain, nextRequest } = await startServer();
    const agent = new http.Agent({ keepAlive: true });
    const answer = get(port, agent);
    const { res } = await nextRequest();
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('part one, ');
    drain.begin();
    res.end('part two');
    const { connection, body, socket } = await answer;
    expect(connection).toBe('keep-alive');
    expect(body).toBe('part one, part two');
    await closed(socket);
    agent.destroy();
  });

  it('answers requests that arrive during the drain on open connections with Connection: close', async () => {
    const { server, port, drain, nextRequest } = await startServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = get(port, agent);
    const { res } = await nextRequest();
    res.writeHead(200);
    res.write('long ');
    drain.begin();
    // Node does not close the listener here (the caller does): a request on a new connection meets the drain too.
    const other = get(port, new http.Agent({ keepAlive: true }));
    (await nextRequest()).res.end('late');
    expect(await other).toMatchObject({ status: 200, connection: 'close', body: 'late' });
    res.end('body');
    await first;
    expect(server.listening).toBe(true);
    agent.destroy();
  });
});
