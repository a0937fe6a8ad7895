import type { RedisClientType, RedisClusterType } from 'redis';
import type { ReadModel } from './readModel.js';
import { createRedisReadModel, type RedisReadModelClient, type RedisReadModelOptions } from './redisReadModel.js';

/**
 * A Redis read model whose records live under the *active generation*: a namespace named by one
 * pointer key, `${root}:{m}:generation` (absent = `root`, so data written before generations
 * existed keeps serving). A rebuild writes a new namespace beside the live one and then switches
 * the pointer with one SET: every reader sees either the old or the new generation, never a
 * half-built one. Usage counts are not projected from events, so they stay under `root` across
 * generations; leases and checkpoints belong to the generation (a projector whose lease is in the
 * old generation is fenced off after a switch and takes the lease again in the new one).
 */
export interface GenerationalReadModel extends ReadModel {
  /** The namespace reads and writes go to now (as last read from the pointer). */
  activeGeneration(): string;
  /** Reads the pointer now (instead of waiting for the next periodic refresh); returns it. */
  refresh(): Promise<string>;
}

export interface GenerationalReadModelOptions extends Omit<RedisReadModelOptions, 'namespace'> {
  /** The root namespace: the pointer, usage counts and the default generation. Default `ps`. */
  readonly root?: string;
  /** How often the pointer is read again. Default 1000 ms. */
  readonly refreshMs?: number;
}

/** The key holding the active generation's namespace. */
export const generationPointerKey = (root: string): string => `${root}:{m}:generation`;
/** The key naming a generation being built (so that a re-run resumes it). */
export const pendingGenerationKey = (root: string): string => `${root}:{m}:generation:pending`;

const asCluster = (client: RedisReadModelClient): RedisClusterType | null => ('masters' in client ? (client as RedisClusterType) : null);

const sendOn = (client: RedisReadModelClient, key: string, args: string[]): Promise<unknown> => {
  const cluster = asCluster(client);
  return cluster ? cluster.sendCommand(key, false, args) : (client as RedisClientType).sendCommand(args);
};

/** Reads the active generation's namespace (root when no switch happened yet). */
export const readActiveGeneration = async (client: RedisReadModelClient, root: string): Promise<string> => {
  const reply = await sendOn(client, generationPointerKey(root), ['GET', generationPointerKey(root)]);
  return typeof reply === 'string' && reply !== '' ? reply : root;
};

/**
 * Makes `next` the active generation with one SET (atomic for every reader; processes pick it up
 * within their refresh interval). Returns the generation that was active before.
 */
export const switchGeneration = async (client: RedisReadModelClient, root: string, next: string): Promise<string> => {
  const reply = await sendOn(client, generationPointerKey(root), ['SET', generationPointerKey(root), next, 'GET']);
  return typeof reply === 'string' && reply !== '' ? reply : root;
};

/** Records (or with null, forgets) the generation a rebuild is building, for resuming it. */
export const setPendingGeneration = async (client: RedisReadModelClient, root: string, generation: string | null): Promise<void> => {
  const key = pendingGenerationKey(root);
  await sendOn(client, key, generation === null ? ['DEL', key] : ['SET', key, generation]);
};

export const readPendingGeneration = async (client: RedisReadModelClient, root: string): Promise<string | null> => {
  const reply = await sendOn(client, pendingGenerationKey(root), ['GET', pendingGenerationKey(root)]);
  return typeof reply === 'string' && reply !== '' ? reply : null;
};

const globEscape = (text: string): string => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/** Every node to scan: the one Redis, or every master of a cluster. */
const scanNodes = async (client: RedisReadModelClient): Promise<RedisClientType[]> => {
  const cluster = asCluster(client);
  if (!cluster) return [client as RedisClientType];
  return (await Promise.all(cluster.masters.map((master) => cluster.nodeClient(master)))) as unknown as RedisClientType[];
};

async function* scanKeys(node: RedisClientType, match: string, count = 1000): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const reply = (await node.sendCommand(['SCAN', cursor, 'MATCH', match, 'COUNT', String(count)])) as [unknown, unknown[]];
    cursor = String(reply[0]);
    const keys = (reply[1] ?? []).map(String);
    if (keys.length > 0) yield keys;
  } while (cursor !== '0');
}

/** Whether a key under the root is shared by every generation (pointer keys, usage counts) or not the read model's at all. */
const sharedUnderRoot = (root: string, key: string): boolean =>
  !key.startsWith(`${root}:{`) || key.startsWith(`${root}:{u:`) || key === generationPointerKey(root) || key === pendingGenerationKey(root);

/**
 * The generations holding read-model records (the root and every `${root}-g…` namespace; the
 * active one always), sorted, with the active one marked.
 */
export const listGenerations = async (client: RedisReadModelClient, root: string): Promise<{ namespace: string; active: boolean }[]> => {
  const found = new Set<string>();
  for (const node of await scanNodes(client)) {
    for (const pattern of [`${globEscape(root)}:[{]*`, `${globEscape(root)}-g*:*`]) {
      for await (const keys of scanKeys(node, pattern)) {
        for (const key of keys) {
          const namespace = key.slice(0, key.indexOf(':'));
          if (namespace !== root || !sharedUnderRoot(root, key)) found.add(namespace);
        }
      }
    }
  }
  const active = await readActiveGeneration(client, root);
  found.add(active);
  return [...found].sort().map((namespace) => ({ namespace, active: namespace === active }));
};

/**
 * Deletes a generation's keys (SCAN + UNLINK in batches, on every master of a cluster). Refuses
 * the active generation. Dropping the root generation keeps what lives under the root for every
 * generation: the pointer keys, the usage counts and keys that are not the read model's (rate
 * limits). Returns the number of keys deleted.
 */
export const dropGeneration = async (client: RedisReadModelClient, root: string, generation: string, options: { batch?: number } = {}): Promise<number> => {
  if (generation.includes(':') || generation.includes('{') || generation === '') throw new Error(`Not a generation namespace: ${generation}`);
  if (generation === (await readActiveGeneration(client, root))) throw new Error(`Refusing to drop the active generation ${generation}`);
  // Under the root live other things too (the rate limiter's `ps:rl:…`): only the read model's
  // own keys (`${ns}:{tag}…`) go, minus what every generation shares.
  const keep = (key: string): boolean => generation === root && sharedUnderRoot(root, key);
  const cluster = asCluster(client) !== null;
  let deleted = 0;
  for (const node of await scanNodes(client)) {
    for await (const keys of scanKeys(node, `${globEscape(generation)}:*`, options.batch ?? 500)) {
      const doomed = keys.filter((key) => !keep(key));
      if (doomed.length === 0) continue;
      // On a cluster one command may only name keys of one slot: one UNLINK per key, pipelined.
      const replies = cluster ? await Promise.all(doomed.map((key) => node.sendCommand(['UNLINK', key]))) : [await node.sendCommand(['UNLINK', ...doomed])];
      deleted += replies.reduce<number>((sum, reply) => sum + Number(reply), 0);
    }
  }
  return deleted;
};

/**
 * The read model of the active generation (see GenerationalReadModel). The pointer is read once
 * here, then every `refreshMs` and on `refresh()`; a failed refresh keeps the last known one.
 */
export const createGenerationalRedisReadModel = async (client: RedisReadModelClient, options: GenerationalReadModelOptions = {}): Promise<GenerationalReadModel> => {
  const { root = 'ps', refreshMs = 1000, ...adapterOptions } = options;
  const open = (namespace: string): ReadModel => createRedisReadModel(client, { ...adapterOptions, namespace });
  const usage = open(root);
  let active = await readActiveGeneration(client, root);
  let current = active === root ? usage : open(active);

  const refresh = async (): Promise<string> => {
    const next = await readActiveGeneration(client, root);
    if (next !== active) {
      // The adapters share the client and hold no other state: the old one is simply dropped.
      current = next === root ? usage : open(next);
      active = next;
    }
    return active;
  };
  const timer = setInterval(() => {
    refresh().catch(() => {
      // Redis unreachable: keep serving the last known generation; node-redis reconnects.
    });
  }, refreshMs);
  timer.unref();

  return {
    activeGeneration: () => active,
    refresh,
    apply: (ops, checkpoint, applyOptions) => current.apply(ops, checkpoint, applyOptions),
    acquireLease: (name, holder, ttlMs) => current.acquireLease(name, holder, ttlMs),
    renewLease: (lease, ttlMs) => current.renewLease(lease, ttlMs),
    releaseLease: (lease) => current.releaseLease(lease),
    getCheckpoint: (projection) => current.getCheckpoint(projection),
    getItem: (dataId) => current.getItem(dataId),
    getItems: (dataIds) => current.getItems(dataIds),
    getCollection: (slug) => current.getCollection(slug),
    listCollections: () => current.listCollections(),
    getCollectionPage: (slug, query) => current.getCollectionPage(slug, query),
    countItems: (slug) => current.countItems(slug),
    getKeyByHash: (keyHash) => current.getKeyByHash(keyHash),
    getKey: (keyId) => current.getKey(keyId),
    listKeys: () => current.listKeys(),
    getPlan: () => current.getPlan(),
    recordUsage: (counts) => usage.recordUsage(counts),
    getUsage: (keyIds) => usage.getUsage(keyIds),
    getUsageSeries: (keyId, granularity, from, to) => usage.getUsageSeries(keyId, granularity, from, to),
    ping: () => current.ping(),
    async close() {
      clearInterval(timer);
      await usage.close();
    },
  };
};
