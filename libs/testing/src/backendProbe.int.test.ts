import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { probeBackend } from './backendProbe.js';

// The global setup's probe of a freshly started container: it must say no, quickly and with the
// reason, where a real client would wait forever (issue 19: connectRedis hung for 180 s).

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A TCP server on a free loopback port that treats every connection with `onConnection`. */
const fakeServer = async (onConnection: (socket: Socket) => void): Promise<string> => {
  const server = createServer((socket) => {
    sockets.push(socket);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `redis://127.0.0.1:${address.port}`;
};

it('refuses a Redis that answers -DENIED (protected mode), naming the reason', async () => {
  const url = await fakeServer((socket) => {
    socket.on('data', () => {
      socket.write('-DENIED Redis is running in protected mode because protected mode is enabled\r\n');
      socket.end();
    });
  });
  await expect(probeBackend('redis', url, 2_000)).rejects.toThrow(/DENIED|protected mode/);
});

it('gives up on a Redis that accepts connections and never answers', async () => {
  const url = await fakeServer(() => {});
  await expect(probeBackend('redis', url, 1_000)).rejects.toThrow(/no answer within 1000 ms|timeout/i);
});

it('gives up on a Kafka address where nothing answers', async () => {
  const url = await fakeServer((socket) => socket.destroy());
  await expect(probeBackend('kafka', url.replace('redis://', ''), 3_000)).rejects.toThrow();
});
