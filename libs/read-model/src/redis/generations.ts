import type { RedisClientType } from 'redis';
import { createRedisCommands } from './redisCommands.js';
import type { RedisReadModelClient } from './redisConnection.js';
import {
  generationPointerKey,
  generationScanPatterns,
  isNamespace,
  namespaceOfKey,
  namespaceScanPattern,
  pendingGenerationKey,
  sharedUnderRoot,
} from './redisKeys.js';

/**
 * Rebuild generations on Redis (docs/projections.md): the pointer naming the active namespace,
 * the pending mark of a rebuild, and listing and dropping generations. Functions beside the
 * projection store, used by `pubstream projections rebuild` and the generational stores.
 */

const send = (client: RedisReadModelClient, key: string, args: string[]): Promise<unknown> => createRedisCommands(client).send(key, args);

const namespaceReply = (reply: unknown): string | null => (typeof reply === 'string' && reply !== '' ? reply : null);

/** Reads the active generation's namespace (root when no switch happened yet). */
export const readActiveGeneration = async (client: RedisReadModelClient, root: string): Promise<string> =>
  namespaceReply(await send(client, generationPointerKey(root), ['GET', generationPointerKey(root)])) ?? root;

/**
 * Makes `next` the active generation with one SET (atomic for every reader; processes pick it up
 * within their refresh interval). Returns the generation that was active before.
 */
export const switchGeneration = async (client: RedisReadModelClient, root: string, next: string): Promise<string> =>
  namespaceReply(await send(client, generationPointerKey(root), ['SET', generationPointerKey(root), next, 'GET'])) ?? root;

/** Records (or with null, forgets) the generation a rebuild is building, for resuming it. */
export const setPendingGeneration = async (client: RedisReadModelClient, root: string, generation: string | null): Promise<void> => {
  const key = pendingGenerationKey(root);
  await send(client, key, generation === null ? ['DEL', key] : ['SET', key, generation]);
};

export const readPendingGeneration = async (client: RedisReadModelClient, root: string): Promise<string | null> =>
  namespaceReply(await send(client, pendingGenerationKey(root), ['GET', pendingGenerationKey(root)]));

async function* scanKeys(node: RedisClientType, match: string, count = 1000): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const reply = (await node.sendCommand(['SCAN', cursor, 'MATCH', match, 'COUNT', String(count)])) as [unknown, unknown[]];
    cursor = String(reply[0]);
    const keys = (reply[1] ?? []).map(String);
    if (keys.length > 0) yield keys;
  } while (cursor !== '0');
}

/**
 * The generations holding read-model records (the root and every `${root}-g…` namespace; the
 * active one always), sorted, with the active one marked.
 */
export const listGenerations = async (client: RedisReadModelClient, root: string): Promise<{ namespace: string; active: boolean }[]> => {
  const found = new Set<string>();
  for (const node of await createRedisCommands(client).nodes()) {
    for (const pattern of generationScanPatterns(root)) {
      for await (const keys of scanKeys(node, pattern)) {
        for (const key of keys) {
          const namespace = namespaceOfKey(key);
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
  if (!isNamespace(generation)) throw new Error(`Not a generation namespace: ${generation}`);
  if (generation === (await readActiveGeneration(client, root))) throw new Error(`Refusing to drop the active generation ${generation}`);
  const keep = (key: string): boolean => generation === root && sharedUnderRoot(root, key);
  const commands = createRedisCommands(client);
  let deleted = 0;
  for (const node of await commands.nodes()) {
    for await (const keys of scanKeys(node, namespaceScanPattern(generation), options.batch ?? 500)) {
      const doomed = keys.filter((key) => !keep(key));
      if (doomed.length === 0) continue;
      // On a cluster one command may only name keys of one slot: one UNLINK per key, pipelined.
      const replies = commands.cluster ? await Promise.all(doomed.map((key) => node.sendCommand(['UNLINK', key]))) : [await node.sendCommand(['UNLINK', ...doomed])];
      deleted += replies.reduce<number>((sum, reply) => sum + Number(reply), 0);
    }
  }
  return deleted;
};
