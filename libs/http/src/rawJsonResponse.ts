import { statusName } from './statusName.js';

/**
 * A complete HTTP/1.1 error answer as bytes, for sockets that never reach Koa (Node's own parse
 * errors and timeouts, refused connections): `{error, message}` JSON like every other error.
 */
export const rawJsonResponse = (status: number, message: string, headers: Readonly<Record<string, string>> = {}): string => {
  const body = JSON.stringify({ error: statusName(status), message });
  const lines = [
    `HTTP/1.1 ${status} ${statusName(status)}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
};
