// Baseline: the cheapest possible Node HTTP server on this machine.
import { createServer } from 'node:http';

const body = JSON.stringify({ hello: 'world' });
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`LISTENING ${address.port}`);
});
