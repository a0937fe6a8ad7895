import http from 'node:http';

// Connections pinned to one API worker of `pubstream start` with API_WORKERS > 1. The workers share
// the port and the primary hands each new connection to one of them; a keep-alive connection stays
// with its worker. Each worker labels its /metrics with `worker="N"`, so the first request on a
// connection tells which worker holds it: no debug header, nothing a client would not see anyway.

export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface WorkerConnection {
  readonly worker: string;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** Opens an event stream on this connection; resolves with its status and a reader of its text. */
  stream(path: string): Promise<{ readonly status: number; text(): string; ended(): boolean; close(): void }>;
  close(): void;
}

const request = (agent: http.Agent, url: string, headers: Record<string, string> = {}): Promise<Answer> =>
  new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });

/** A new connection to `baseUrl`, and which worker took it. */
export const connectToSomeWorker = async (baseUrl: string): Promise<WorkerConnection> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const metrics = await request(agent, `${baseUrl}/metrics`);
  const worker = /worker="(\d+)"/.exec(metrics.body)?.[1];
  if (worker === undefined) throw new Error(`no worker label on /metrics (${metrics.status})`);
  return {
    worker,
    get: (path, headers) => request(agent, `${baseUrl}${path}`, headers),
    stream: (path) =>
      new Promise((resolve, reject) => {
        const req = http.get(`${baseUrl}${path}`, { agent, headers: { Accept: 'text/event-stream' } }, (res) => {
          let text = '';
          let ended = false;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('error', () => {});
          res.on('close', () => (ended = true));
          resolve({ status: res.statusCode ?? 0, text: () => text, ended: () => ended, close: () => req.destroy() });
        });
        req.on('error', reject);
      }),
    close: () => agent.destroy(),
  };
};

/** A new connection held by `worker` (connections are handed out round robin: a few tries suffice). */
export const connectToWorker = async (baseUrl: string, worker: string, tries = 20): Promise<WorkerConnection> => {
  for (let i = 0; i < tries; i++) {
    const connection = await connectToSomeWorker(baseUrl);
    if (connection.worker === worker) return connection;
    connection.close();
  }
  throw new Error(`no connection reached worker ${worker} in ${tries} tries`);
};
