import { connect } from 'node:net';

export interface RawSocketResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const parseHead = (head: string): { status: number; headers: Record<string, string> } => {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
};

const decodeChunked = (raw: Buffer): Buffer => {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
};

/**
 * Sends raw bytes to host:port and reads one response until the server closes the connection
 * (send `Connection: close`). A `text/event-stream` answer is cut once its headers arrived. Rejects
 * when the connection ends with no status line or `timeoutMs` passes: both count as a broken server.
 */
export const rawSocketHttp = (port: number, request: Buffer | string, options: { from?: string; timeoutMs?: number } = {}): Promise<RawSocketResponse> =>
  new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const socket = connect({ host: '127.0.0.1', port, localAddress: options.from });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      const headEnd = raw.indexOf('\r\n\r\n');
      if (headEnd < 0) return reject(error ?? new Error(`no response head (got ${JSON.stringify(raw.toString('latin1').slice(0, 200))})`));
      const { status, headers } = parseHead(raw.subarray(0, headEnd).toString('latin1'));
      const rest = raw.subarray(headEnd + 4);
      resolve({ status, headers, body: headers['transfer-encoding'] === 'chunked' ? decodeChunked(rest) : rest });
    };
    const timer = setTimeout(() => finish(new Error(`no complete response within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const raw = Buffer.concat(chunks);
      const headEnd = raw.indexOf('\r\n\r\n');
      if (headEnd >= 0 && /content-type:\s*text\/event-stream/i.test(raw.subarray(0, headEnd).toString('latin1'))) finish(null);
    });
    socket.on('end', () => finish(null));
    socket.on('close', () => finish(null));
    // A server that closes while we still write (e.g. after a 413) resets the socket: what it sent counts.
    socket.on('error', (error) => finish(error));
    socket.write(request);
  });
