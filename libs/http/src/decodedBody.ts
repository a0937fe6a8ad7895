import type { IncomingMessage } from 'node:http';
import { isPubstreamError, PayloadTooLargeError, ValidationError } from '@pubstream/domain';
import { createDecoder, type ContentCoding } from './contentCoding.js';

export interface DecodedBodyOptions {
  readonly coding: ContentCoding;
  /** Most bytes accepted, received and decoded alike: 413 past it (`Infinity`: no cap). */
  readonly maxBytes: number;
  /**
   * Compressed bodies without a total cap (imports): once past 1 MiB decoded, at most this many
   * decoded bytes per received byte, so a bomb is refused early instead of inflated (413).
   */
  readonly maxExpansion?: number;
  /** The message of the 413 past `maxBytes` (default: `Request body is larger than 1 MiB` or its byte count). */
  readonly tooLargeMessage?: string;
}

const EXPANSION_GRACE_BYTES = 1024 * 1024;

const tooLarge = (options: DecodedBodyOptions) =>
  new PayloadTooLargeError(
    options.tooLargeMessage ?? (options.maxBytes === 1024 * 1024 ? 'Request body is larger than 1 MiB' : `Request body is larger than ${options.maxBytes} bytes`),
  );

const isAbort = (code: unknown) => code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNABORTED';
const isDecodeError = (code: unknown) => typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__') || code.startsWith('ERR_BROTLI'));

/** Stream and zlib errors in our words: corrupt compressed data is the caller's mistake (400), never a 500. */
const asBodyError = (error: unknown, coding: ContentCoding): unknown => {
  if (isPubstreamError(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (isAbort(code)) return new ValidationError('Request aborted', { cause: error });
  if (coding !== 'identity' && isDecodeError(code)) return new ValidationError(`Request body is not valid ${coding} data`, { cause: error });
  return error;
};

/**
 * The request body as decoded chunks, streamed (docs/security.md, body layer): decompressed as it
 * arrives, never past `maxBytes`, errors turned into rejections of the iteration (never stray
 * stream events). Stopping early leaves the rest of the body to be drained, not cut, so the
 * answer reaches the client.
 */
export async function* decodedBody(req: IncomingMessage, options: DecodedBodyOptions): AsyncGenerator<Buffer, void, undefined> {
  const declared = Number(req.headers['content-length']);
  // Known to be too large before reading: Node discards the unread body after the answer.
  if (options.coding === 'identity' && declared > options.maxBytes) throw tooLarge(options);
  const decoder = options.coding === 'identity' ? null : createDecoder(options.coding);
  let received = 0;
  let decoded = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > options.maxBytes) decoder?.destroy(tooLarge(options));
  };
  const onEnded = () => {
    if (!req.complete) decoder?.destroy(new ValidationError('Request aborted'));
  };
  const onError = (error: Error) => decoder?.destroy(error);
  if (decoder) {
    req.on('data', onData);
    req.once('close', onEnded);
    req.once('error', onError);
    req.pipe(decoder);
  }
  try {
    // Leaving the loop early must not destroy the request: that would reset the connection.
    const chunks = decoder ?? req.iterator({ destroyOnReturn: false });
    for await (const chunk of chunks as AsyncIterable<Buffer>) {
      decoded += chunk.length;
      if (decoded > options.maxBytes) throw tooLarge(options);
      if (decoder && options.maxExpansion !== undefined && decoded > EXPANSION_GRACE_BYTES && decoded > received * options.maxExpansion) {
        throw new PayloadTooLargeError(`Compressed request body expands more than ${options.maxExpansion} times`);
      }
      yield chunk;
    }
  } catch (error) {
    throw asBodyError(error, options.coding);
  } finally {
    if (decoder) {
      req.unpipe(decoder);
      req.off('data', onData);
      req.off('close', onEnded);
      req.off('error', onError);
      decoder.destroy();
    }
    if (!req.complete && !req.destroyed) req.resume();
  }
}
