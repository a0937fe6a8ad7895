import { createHash } from 'node:crypto';

/** A weak ETag from the versions that determine a response body. */
export const weakEtag = (parts: readonly (string | number)[]): string =>
  `W/"${createHash('sha1').update(parts.join('\u0000')).digest('base64url').slice(0, 22)}"`;

/** If-None-Match with weak comparison: `*` or any listed tag equal to ours. */
export const matchesIfNoneMatch = (header: string, etag: string): boolean => {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
};
