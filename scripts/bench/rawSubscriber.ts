import net from 'node:net';

const NEWLINE = 0x0a;

/**
 * Counts SSE frames (blank-line separators) in the raw bytes of a chunked HTTP/1.1 response, a
 * separator split across two reads included: returns how many frames each read ends. The chunk
 * framing (`<hex>\r\n … \r\n`) never holds `\n\n`, and a delta batch is written as one chunk of
 * whole frames, so no chunk boundary falls inside a separator (a snapshot sliced into several
 * chunks may be miscounted by one; the bench counts frames after the snapshot).
 */
export const createByteFrameCounter = (): ((bytes: Buffer) => number) => {
  let previousEndedWithNewline = false;
  return (bytes) => {
    let frames = previousEndedWithNewline && bytes[0] === NEWLINE ? 1 : 0;
    for (let at = bytes.indexOf('\n\n'); at !== -1; at = bytes.indexOf('\n\n', at + 2)) frames++;
    const length = bytes.length;
    previousEndedWithNewline = length > 0 && bytes[length - 1] === NEWLINE && !(length > 1 && bytes[length - 2] === NEWLINE);
    return frames;
  };
};

/**
 * One counting subscriber on a bare TCP socket: the request written by hand, the response's bytes
 * counted as they arrive, with no HTTP parser, stream decoding or string per read. Ten thousand of
 * these cost the load generator (on the same cores as the server) a fraction of what as many
 * `http.get` responses do, so the fanout measures the server more than the client.
 * Resolves once the status line says 200 (rejects on any other status).
 */
export const openRawCounter = (url: URL, onFrames: (frames: number) => void): Promise<net.Socket> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const count = createByteFrameCounter();
    let started = false;
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
    });
    socket.on('data', (bytes: Buffer) => {
      if (!started) {
        started = true;
        if (!bytes.subarray(0, 12).toString('latin1').startsWith('HTTP/1.1 200')) {
          reject(new Error(`subscribe answered ${bytes.subarray(0, 12).toString('latin1')}`));
          socket.destroy();
          return;
        }
        resolve(socket);
      }
      onFrames(count(bytes));
    });
  });
