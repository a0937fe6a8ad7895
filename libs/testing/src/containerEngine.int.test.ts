import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { detectContainerEngine } from './containerEngine.js';

// A "Docker host" that accepts connections and never answers: the probe must give up, not hang.
let server: Server;
const sockets: Socket[] = [];
beforeAll(async () => {
  server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

it('reports no container engine when the engine never answers, instead of hanging', async () => {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  process.env.DOCKER_HOST = `tcp://127.0.0.1:${address.port}`;
  const result = await detectContainerEngine(1_000);
  expect(result.available).toBe(false);
  if (!result.available) expect(result.reason).toMatch(/no container engine/);
});
