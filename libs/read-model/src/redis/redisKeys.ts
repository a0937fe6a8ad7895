/**
 * Every Redis key name of the read-side adapter, and nothing else builds one (the table in
 * docs/read-models.md). The part in braces is the hash tag: keys sharing it share a cluster slot,
 * so one script may touch them all. The Lua scripts name a collection's keys with the functions
 * of COLLECTION_KEYS_LUA, generated from the same suffix table as the TypeScript builders.
 */

/** A collection's keys are its prefix `ns:{c:<slug>}:` plus one of these. */
const COLLECTION_SUFFIX = {
  record: 'rec',
  version: 'v',
  items: 'items',
  itemVersions: 'ver',
  sorted: 'z:',
  missing: 'm:',
  /** The position of the collection's latest change (its record or an item). */
  lastChange: 'last',
  /** The collection's change history: a sorted set, score = position, member = the entry's JSON. */
  history: 'h',
} as const;

export const redisKeys = (ns: string) => {
  const collectionPrefix = (slug: string): string => `${ns}:{c:${slug}}:`;
  const usage = (keyId: string): string => `${ns}:{u:${keyId}}`;
  return {
    item: (dataId: string) => `${ns}:{i:${dataId}}`,
    itemVersion: (dataId: string) => `${ns}:{i:${dataId}}:v`,
    /** The item's history index: a sorted set, score = position, member = `<position>:<collection slug>`. */
    itemHistory: (dataId: string) => `${ns}:{i:${dataId}}:h`,
    /** The prefix P the scripts take: every key of the collection is P + a suffix. */
    collectionPrefix,
    collectionRecord: (slug: string) => collectionPrefix(slug) + COLLECTION_SUFFIX.record,
    collectionItems: (slug: string) => collectionPrefix(slug) + COLLECTION_SUFFIX.items,
    collectionLastChange: (slug: string) => collectionPrefix(slug) + COLLECTION_SUFFIX.lastChange,
    collectionHistory: (slug: string) => collectionPrefix(slug) + COLLECTION_SUFFIX.history,
    collectionList: `${ns}:{cl}`,
    collectionListVersions: `${ns}:{cl}:v`,
    keyByHash: (hash: string) => `${ns}:{k:${hash}}`,
    keyByHashVersion: (hash: string) => `${ns}:{k:${hash}}:v`,
    keyList: `${ns}:{kl}`,
    keyListVersions: `${ns}:{kl}:v`,
    plan: `${ns}:{m}:plan`,
    planVersion: `${ns}:{m}:plan:v`,
    checkpoints: `${ns}:{m}:cp`,
    /** Present once the projector has caught up since the namespace was last emptied: the log position it had reached. */
    caughtUp: `${ns}:{m}:caught-up`,
    /** The history's facts: `start` (applied position when recording began), `window` (RESUME_WINDOW ms). */
    historyMeta: `${ns}:{m}:history`,
    /** The time index: a sorted set, score = ms, member = the applied position then. */
    historyTimes: `${ns}:{m}:history:t`,
    lease: (name: string) => `${ns}:{m}:lease:${name}`,
    leaseTokens: (name: string) => `${ns}:{m}:lease:${name}:seq`,
    /** `count` and `last` of a key; its bucket hashes share the hash tag. */
    usage,
    usageHours: (keyId: string, day: string) => `${usage(keyId)}:h:${day}`,
    usageDays: (keyId: string) => `${usage(keyId)}:d`,
    usageMonths: (keyId: string) => `${usage(keyId)}:mo`,
  };
};

export type RedisKeys = ReturnType<typeof redisKeys>;

/** Lua functions naming a collection's keys from its prefix P (prepended to the scripts). */
export const COLLECTION_KEYS_LUA = `
local function recordKey(P) return P .. '${COLLECTION_SUFFIX.record}' end
local function versionKey(P) return P .. '${COLLECTION_SUFFIX.version}' end
local function itemsKey(P) return P .. '${COLLECTION_SUFFIX.items}' end
local function itemVersionsKey(P) return P .. '${COLLECTION_SUFFIX.itemVersions}' end
local function sortedKey(P, field) return P .. '${COLLECTION_SUFFIX.sorted}' .. field end
local function missingKey(P, field) return P .. '${COLLECTION_SUFFIX.missing}' .. field end
local function lastChangeKey(P) return P .. '${COLLECTION_SUFFIX.lastChange}' end
local function historyKey(P) return P .. '${COLLECTION_SUFFIX.history}' end
`;

/** The part of a key Redis Cluster hashes: the text between the first `{` and the next `}` when
 * not empty, else the whole key. Keys with equal hash tags always share a slot. */
export const hashTagOf = (key: string): string => {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  return close === -1 || close === open + 1 ? key : key.slice(open + 1, close);
};

// Generations (docs/projections.md): a root namespace, its pointer keys, and `${root}-g…` namespaces.

/** The key holding the active generation's namespace. */
export const generationPointerKey = (root: string): string => `${root}:{m}:generation`;
/** The key naming a generation being built (so that a re-run resumes it). */
export const pendingGenerationKey = (root: string): string => `${root}:{m}:generation:pending`;
/** The namespace of a new generation of `root`, named after when it was started. */
export const newGenerationNamespace = (root: string, at: Date): string => `${root}-g${at.getTime()}`;

/** Whether a string can be a generation's namespace (no key separator, no hash tag). */
export const isNamespace = (name: string): boolean => name !== '' && !name.includes(':') && !name.includes('{');

/** The namespace a key belongs to. */
export const namespaceOfKey = (key: string): string => key.slice(0, key.indexOf(':'));

const globEscape = (text: string): string => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/** SCAN patterns of the keys of every generation of `root`: the root's own tagged keys and every `${root}-g…` key. */
export const generationScanPatterns = (root: string): string[] => [`${globEscape(root)}:[{]*`, `${globEscape(root)}-g*:*`];

/** SCAN pattern of every key under one namespace. */
export const namespaceScanPattern = (namespace: string): string => `${globEscape(namespace)}:*`;

/**
 * Whether a key under the root is shared by every generation (the pointer keys, usage counts) or
 * not the read model's at all (the rate limiter's `ps:rl:…`): dropping the root keeps those.
 */
export const sharedUnderRoot = (root: string, key: string): boolean =>
  !key.startsWith(`${root}:{`) || key.startsWith(`${root}:{u:`) || key === generationPointerKey(root) || key === pendingGenerationKey(root);
