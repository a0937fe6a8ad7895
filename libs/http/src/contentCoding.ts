import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { UnsupportedMediaTypeError } from '@pubstream/domain';

/** The request body codings both APIs accept (docs/security.md). */
export type ContentCoding = 'identity' | 'gzip' | 'deflate' | 'br';

/**
 * Reads `Content-Encoding`: one coding, any case; `x-gzip` is gzip. Anything else (an unknown
 * coding, or a list of several) is 415.
 */
export const parseContentEncoding = (header: string | undefined): ContentCoding => {
  const value = (header ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate') return 'deflate';
  if (value === 'br') return 'br';
  throw new UnsupportedMediaTypeError('Unsupported Content-Encoding: use gzip, deflate, br or identity');
};

/** A streaming decoder for a compressed coding. */
export const createDecoder = (coding: Exclude<ContentCoding, 'identity'>): Transform =>
  coding === 'gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : createBrotliDecompress();
