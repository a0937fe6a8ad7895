/**
 * Key names of the Redis read model under a namespace (the table in docs/read-models.md). The part
 * in braces is the hash tag: keys sharing it share a cluster slot, so one script may touch them all.
 */
export const redisKeys = (ns: string) => ({
  item: (dataId: string) => `${ns}:{i:${dataId}}`,
  itemVersion: (dataId: string) => `${ns}:{i:${dataId}}:v`,
  collectionPrefix: (slug: string) => `${ns}:{c:${slug}}:`,
  collectionList: `${ns}:{cl}`,
  collectionListVersions: `${ns}:{cl}:v`,
  keyByHash: (hash: string) => `${ns}:{k:${hash}}`,
  keyByHashVersion: (hash: string) => `${ns}:{k:${hash}}:v`,
  keyList: `${ns}:{kl}`,
  keyListVersions: `${ns}:{kl}:v`,
  plan: `${ns}:{m}:plan`,
  planVersion: `${ns}:{m}:plan:v`,
  checkpoints: `${ns}:{m}:cp`,
  lease: (name: string) => `${ns}:{m}:lease:${name}`,
  leaseTokens: (name: string) => `${ns}:{m}:lease:${name}:seq`,
  usage: (keyId: string) => `${ns}:{u:${keyId}}`,
});

export type RedisKeys = ReturnType<typeof redisKeys>;

/** The part of a key Redis Cluster hashes: the text between the first `{` and the next `}` when
 * not empty, else the whole key. Keys with equal hash tags always share a slot. */
export const hashTagOf = (key: string): string => {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  return close === -1 || close === open + 1 ? key : key.slice(open + 1, close);
};
