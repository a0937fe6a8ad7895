import http from 'node:http';
import { createParser } from 'eventsource-parser';

export interface PeerSubscribers {
  latencies(): number[];
  connected(): number;
  close(): void;
}

/**
 * `count` PocketBase realtime clients (GET /api/realtime, then POST the subscription to `topic` with
 * the clientId of PB_CONNECT). One in `sampleEvery` records the latency from the `ts` a writer put
 * in the record to its arrival; the others stop parsing once subscribed, as Pubstream's
 * subscribers in sseLoad.ts only count.
 */
export const openPocketBaseSubscribers = async (baseUrl: string, topic: string, count: number, sampleEvery: number): Promise<PeerSubscribers> => {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const latencies: number[] = [];
  const requests: http.ClientRequest[] = [];
  let connected = 0;
  const subscribe = async (clientId: string): Promise<void> => {
    const response = await fetch(`${baseUrl}/api/realtime`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId, subscriptions: [topic] }) });
    if (!response.ok) throw new Error(`PocketBase realtime subscribe answered ${response.status}`);
  };
  const openOne = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const sampled = index % sampleEvery === 0;
      let parsing = true;
      const parser = createParser({
        onEvent: (event) => {
          if (event.event === 'PB_CONNECT') {
            const { clientId } = JSON.parse(event.data) as { clientId: string };
            subscribe(clientId).then(() => {
              connected++;
              parsing = sampled;
              resolve();
            }, reject);
            return;
          }
          if (event.event !== topic) return;
          const { record } = JSON.parse(event.data) as { record: { ts?: number } };
          if (typeof record.ts === 'number' && record.ts > 0) latencies.push(Date.now() - record.ts);
        },
      });
      const request = http.get(`${baseUrl}/api/realtime`, { agent }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`PocketBase realtime answered ${response.statusCode}`));
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (parsing) parser.feed(chunk);
        });
      });
      request.on('error', reject);
      requests.push(request);
    });
  for (let start = 0; start < count; start += 200) await Promise.all(Array.from({ length: Math.min(200, count - start) }, (_, i) => openOne(start + i)));
  return {
    latencies: () => latencies,
    connected: () => connected,
    close: () => {
      for (const request of requests) request.destroy();
      agent.destroy();
    },
  };
};
