import type { Socket } from 'node:net';
import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, type SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { hostHeader, openSocket, parseRawResponse, rawExchange, type RawResponse } from './support/rawSocket.js';

// Issue 15, findings 4 and 9, over raw sockets on both ports of the embedded profile: errors that
// Node answers itself get `{error, message}` JSON; slow clients are cut after the configured
// timeouts, not after 300 s; one address cannot open more than its share of connections.

const BASE_ENV = { PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', EVENT_STORE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' };

const expectJsonError = (response: RawResponse, status: number, error: string) => {
  expect(response.status, response.raw.slice(0, 300)).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as { error: string; message: string };
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(error);
  expect(body.message.length).toBeGreaterThan(0);
};

describe('Node-level errors and timeouts', () => {
  let server: AllInOne;
  let apiKey: string;
  const ports = () => [
    ['public', server.publicUrl],
    ['admin', server.adminUrl],
  ] as const;

  beforeAll(async () => {
    server = await startAllInOne({
      env: { ...BASE_ENV, HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000', ADMIN_REQUEST_TIMEOUT_MS: '2000' },
    });
    const admin = async (method: string, path: string, body: unknown) =>
      fetch(`${server.adminUrl}${path}`, { method, headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
    await admin('POST', '/admin/collections', { slug: 'live', name: 'Live' });
    apiKey = ((await admin('POST', '/admin/keys', { name: 'edge', type: 'test' })) as { key: string }).key;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a 40 KB header block is 431 JSON on both ports', async () => {
    for (const [, url] of ports()) {
      const response = await rawExchange(url, [`GET /healthz HTTP/1.1\r\nHost: ${hostHeader(url)}\r\nX-Pad: ${'a'.repeat(40_000)}\r\n\r\n`]);
      expectJsonError(response, 431, 'Request Header Fields Too Large');
    }
  });

  it('a malformed request line is 400 JSON on both ports', async () => {
    for (const [, url] of ports()) {
      expectJsonError(await rawExchange(url, ['HELLO THERE\r\n\r\n']), 400, 'Bad Request');
      expectJsonError(await rawExchange(url, [`GET /healthz HTTP/1.1\r\nHost: ${hostHeader(url)}\r\nBad Header\r\n\r\n`]), 400, 'Bad Request');
    }
  });

  it('headers that never end are cut with 408 JSON after the headers timeout', async () => {
    for (const [, url] of ports()) {
      const response = await rawExchange(url, [`GET /healthz HTTP/1.1\r\nHost: ${hostHeader(url)}\r\n`], { timeoutMs: 15_000 });
      expectJsonError(response, 408, 'Request Timeout');
    }
  });

  it('a body that trickles in is cut with 408 JSON after the request timeout, on both ports', async () => {
    const requests = [
      [server.publicUrl, `POST /public/batch HTTP/1.1\r\nHost: ${hostHeader(server.publicUrl)}\r\nX-API-Key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`],
      [
        server.adminUrl,
        `PUT /admin/collections/live/items/slow HTTP/1.1\r\nHost: ${hostHeader(server.adminUrl)}\r\nAuthorization: Bearer ${server.adminToken}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
      ],
    ] as const;
    for (const [url, head] of requests) {
      const parts = [head, ...Array.from({ length: 30 }, () => ' ')];
      const response = await rawExchange(url, parts, { gapMs: 500, timeoutMs: 15_000 });
      expectJsonError(response, 408, 'Request Timeout');
    }
  });

  it('a live /subscribe stream outlives the request timeout', async () => {
    let client: SseTestClient | null = null;
    try {
      client = await openSse(`${server.publicUrl}/subscribe?apiKey=${apiKey}&collections=live`, {});
      expect(client.status).toBe(200);
      await client.waitFor((event) => event.event === 'update' && event.data?.collectionSlug === 'live', 'the snapshot');
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      await fetch(`${server.adminUrl}/admin/collections/live/items/after-timeout`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ data: { n: 1 } }),
      });
      await client.waitFor((event) => event.data?.collectionSlug === 'live' && event.data.data.total === 1, 'the page update after the request timeout');
    } finally {
      client?.close();
    }
  }, 20_000);
});

describe('connections per client address', () => {
  let server: AllInOne;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startAllInOne({ env: { ...BASE_ENV, MAX_CONNECTIONS_PER_ADDRESS: '4' } });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await server?.stop();
  });

  it('over the cap a connection gets 429 JSON and is closed; under it again, connections work', async () => {
    for (const url of [server.publicUrl, server.adminUrl]) {
      const held = await Promise.all([1, 2, 3, 4].map(() => openSocket(url)));
      sockets.push(...held);
      const refused = await rawExchange(url, [`GET /healthz HTTP/1.1\r\nHost: ${hostHeader(url)}\r\n\r\n`], { timeoutMs: 5_000 });
      expectJsonError(refused, 429, 'Too Many Requests');
      expect(refused.headers['connection']).toBe('close');
      expect(JSON.parse(refused.body).message).toBe('Too many open connections from your address (at most 4)');

      // A held connection still works, and closing one frees a place.
      const ok = held[0] as Socket;
      const answer = new Promise<string>((resolve) => {
        let text = '';
        ok.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (text.includes('\r\n\r\n')) resolve(text);
        });
      });
      ok.write(`GET /healthz HTTP/1.1\r\nHost: ${hostHeader(url)}\r\n\r\n`);
      expect(parseRawResponse(await answer).status).toBe(200);
      held[1]?.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const again = await rawExchange(url, [`GET /healthz HTTP/1.1\r\nHost: ${hostHeader(url)}\r\nConnection: close\r\n\r\n`], { timeoutMs: 5_000 });
      expect(again.status).toBe(200);
      for (const socket of held) socket.destroy();
    }
  });
});

describe('bodies left unread', () => {
  // Default timeouts: the request timeout (30 s public, 10 min admin) is not what cuts these.
  let lingering: AllInOne;
  beforeAll(async () => {
    lingering = await startAllInOne({ env: BASE_ENV });
  });
  afterAll(async () => {
    await lingering?.stop();
  });

  it('a body left unread after an early answer (401) holds its connection for seconds, not until the request timeout', async () => {
    const heads = [
      `POST /public/batch HTTP/1.1\r\nHost: ${hostHeader(lingering.publicUrl)}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
      `PUT /admin/collections/live/items/slow HTTP/1.1\r\nHost: ${hostHeader(lingering.adminUrl)}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
    ];
    for (const [index, url] of [lingering.publicUrl, lingering.adminUrl].entries()) {
      // 100 s of trickling body if nobody cut it; the client gives up after 30 s.
      const parts = [heads[index] as string, ...Array.from({ length: 200 }, () => ' ')];
      const response = await rawExchange(url, parts, { gapMs: 500, timeoutMs: 30_000 });
      expect(response.status).toBe(401);
      expect(response.closedByServer).toBe(true);
    }
  }, 70_000);
});
