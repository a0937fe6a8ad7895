// Raw HTTP/1.1 over a TCP socket, for requests that fetch() refuses to send (malformed request
// lines, oversized header blocks, bodies that trickle in) and for answers Node writes itself.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Everything received, as text. */
  readonly raw: string;
  /** False when the exchange ended because the client gave up (its timeout), not the server. */
  readonly closedByServer: boolean;
}

/** Parses the first HTTP response in `raw`; status 0 when nothing (or no status line) arrived. */
export const parseRawResponse = (raw: string, closedByServer = true): RawResponse => {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = end === -1 ? '' : raw.slice(end + 4);
  const length = headers['content-length'];
  if (length !== undefined) body = body.slice(0, Number(length));
  return { status, headers, body, raw, closedByServer };
};

const hostOf = (url: string) => new URL(url);

/** Opens a TCP connection to the host and port of `url`. */
export const openSocket = (url: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = hostOf(url);
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });

/**
 * Writes `parts` to a new connection (waiting `gapMs` between them), then collects what the
 * server sends until it closes the connection or `timeoutMs` passes.
 */
export const rawExchange = async (url: string, parts: readonly (string | Buffer)[], options: { gapMs?: number; timeoutMs?: number } = {}): Promise<RawResponse> => {
  const socket = await openSocket(url);
  const chunks: Buffer[] = [];
  const closed = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
  let gaveUp = false;
  const timer = setTimeout(() => {
    gaveUp = true;
    socket.destroy();
  }, options.timeoutMs ?? 10_000);
  for (const [index, part] of parts.entries()) {
    if (socket.destroyed) break;
    if (index > 0 && options.gapMs) await new Promise((resolve) => setTimeout(resolve, options.gapMs));
    socket.write(part);
  }
  await closed;
  clearTimeout(timer);
  return parseRawResponse(Buffer.concat(chunks).toString('utf8'), !gaveUp);
};

/** The Host header value for `url`. */
export const hostHeader = (url: string): string => hostOf(url).host;
