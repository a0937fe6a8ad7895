import { ValidationError } from '@pubstream/domain';
import { changeEntryOf } from '../changeEntryOf.js';
import type { ReadModelOp } from '../projectionStore.js';
import { hashTagOf, type RedisKeys } from './redisKeys.js';

/** One call of the APPLY script (redisScripts.ts). */
export interface WriteChunk {
  /** A key of the chunk's slot: KEYS[1], which routes the call on a cluster. */
  readonly routeKey: string;
  /** The entries, flattened: tag, then its fields. */
  readonly args: string[];
  /** Per entry, in reply order, the index of the op it belongs to. */
  readonly opOf: number[];
}

export interface WriteChunkOptions {
  /** On a cluster a call may only touch one slot: entries are grouped by hash tag. */
  readonly cluster: boolean;
  /** At most this many entries per call, so that one call never holds Redis for long. Default 100. */
  readonly maxEntries?: number;
  /** At most about this many bytes of arguments per call. Default 256 KiB. */
  readonly maxBytes?: number;
  /** Record item changes in the history, trimming each written index to `trim` (docs/read-models.md). */
  readonly history?: HistoryWrite;
}

export interface HistoryWrite {
  /** Entries at or below this position are dropped from every index written (0: none). */
  readonly trim: number;
  /** TTL of every index written. */
  readonly ttlMs: number;
}

interface Entry {
  readonly routeKey: string;
  readonly args: string[];
  readonly bytes: number;
}

const epochMs = (iso: string): string => {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? String(ms) : '';
};

const entry = (routeKey: string, args: string[]): Entry => {
  let bytes = 0;
  for (const arg of args) bytes += arg.length;
  return { routeKey, args, bytes };
};

type Op<K extends ReadModelOp['kind']> = Extract<ReadModelOp, { kind: K }>;

/** On one node an item is one `i` entry; on a cluster its record and its membership live in two
 * slots, so two entries. Each half writes its own part of the history with its guarded change. */
const itemEntries = (op: Op<'item.put'> | Op<'item.delete'>, key: RedisKeys, cluster: boolean, history: HistoryWrite | undefined): Entry[] => {
  const put = op.kind === 'item.put';
  const dataId = put ? op.item.dataId : op.dataId;
  const slug = put ? op.item.collectionId : op.collectionId;
  const position = String(put ? op.item.position : op.position);
  const prefix = key.collectionPrefix(slug);
  const version = String(put ? op.item.version : op.version);
  const json = put ? JSON.stringify(op.item) : '';
  const created = put ? epochMs(op.item.createdAt) : '';
  const updated = put ? epochMs(op.item.updatedAt) : '';
  const entryJson = history ? JSON.stringify(changeEntryOf(op)) : '';
  const member = history ? `${position}:${slug}` : '';
  const trim = String(history?.trim ?? 0);
  const ttl = String(Math.ceil(history?.ttlMs ?? 1));
  const record = [key.item(dataId), key.itemVersion(dataId), version, json, key.itemHistory(dataId), member, position, trim, ttl];
  const membership = [prefix, dataId, version, json, created, updated, position, entryJson, trim, ttl];
  // One node: the membership's version, json, position, trim and ttl are the record's, sent once.
  if (!cluster) return [entry(key.item(dataId), ['i', ...record, prefix, dataId, created, updated, entryJson])];
  // Both halves are version-guarded, so a crash between them is repaired by the replay.
  return [entry(key.item(dataId), ['t', ...record]), entry(key.collectionRecord(slug), ['c', ...membership])];
};

const collectionEntries = (op: Op<'collection.put'> | Op<'collection.delete'>, key: RedisKeys): Entry[] => {
  const put = op.kind === 'collection.put';
  const slug = put ? op.collection.slug : op.slug;
  const version = String(put ? op.collection.version : op.version);
  const json = put ? JSON.stringify(op.collection) : '';
  const position = String(put ? op.collection.position : op.position);
  return [
    entry(key.collectionRecord(slug), ['r', key.collectionPrefix(slug), version, json, position]),
    entry(key.collectionList, ['h', key.collectionList, key.collectionListVersions, slug, version, json]),
  ];
};

const keyEntries = (op: Op<'key.put'> | Op<'key.delete'>, key: RedisKeys): Entry[] => {
  const put = op.kind === 'key.put';
  const keyId = put ? op.key.keyId : op.keyId;
  const hash = put ? op.key.keyHash : op.keyHash;
  const version = String(put ? op.key.version : op.version);
  const json = put ? JSON.stringify(op.key) : '';
  return [
    entry(key.keyByHash(hash), ['s', key.keyByHash(hash), key.keyByHashVersion(hash), version, json]),
    entry(key.keyList, ['h', key.keyList, key.keyListVersions, keyId, version, json]),
  ];
};

/** The APPLY entries of one op. */
const entriesOf = (op: ReadModelOp, key: RedisKeys, cluster: boolean, history: HistoryWrite | undefined): Entry[] => {
  switch (op.kind) {
    case 'item.put':
    case 'item.delete':
      return itemEntries(op, key, cluster, history);
    case 'collection.put':
    case 'collection.delete':
      return collectionEntries(op, key);
    case 'key.put':
    case 'key.delete':
      return keyEntries(op, key);
    case 'plan.put':
      return [entry(key.plan, ['s', key.plan, key.planVersion, String(op.plan.version), JSON.stringify(op.plan)])];
    default: {
      const _never: never = op;
      throw new ValidationError(`Unknown read model op ${JSON.stringify(_never)}`);
    }
  }
};

/**
 * Splits a batch of ops into APPLY calls: on one node one group, on a cluster one group per hash
 * tag; each group cut in op order into chunks of bounded size. Calls of one group must be issued
 * in the returned order (on one connection Redis then runs them in that order), which keeps the
 * order of the ops on every record; different groups touch different keys.
 */
export const planWriteChunks = (ops: readonly ReadModelOp[], key: RedisKeys, options: WriteChunkOptions): WriteChunk[] => {
  const maxEntries = options.maxEntries ?? 100;
  const maxBytes = options.maxBytes ?? 256 * 1024;
  const open = new Map<string, { chunk: WriteChunk; bytes: number }>();
  const chunks: WriteChunk[] = [];
  ops.forEach((op, index) => {
    for (const entry of entriesOf(op, key, options.cluster, options.history)) {
      const group = options.cluster ? hashTagOf(entry.routeKey) : '';
      let current = open.get(group);
      if (!current || current.chunk.opOf.length >= maxEntries || (current.bytes + entry.bytes > maxBytes && current.chunk.opOf.length > 0)) {
        current = { chunk: { routeKey: entry.routeKey, args: [], opOf: [] }, bytes: 0 };
        open.set(group, current);
        chunks.push(current.chunk);
      }
      for (const arg of entry.args) current.chunk.args.push(arg);
      current.chunk.opOf.push(index);
      current.bytes += entry.bytes;
    }
  });
  return chunks;
};
