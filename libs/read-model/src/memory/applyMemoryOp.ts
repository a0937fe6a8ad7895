import { ValidationError } from '@pubstream/domain';
import type { ReadModelOp } from '../projectionStore.js';
import { enterCollection, leaveCollection, touchCollection, type MemoryRecords } from './memoryRecords.js';
import { sortKindOf } from './sortKeys.js';

type Op<K extends ReadModelOp['kind']> = Extract<ReadModelOp, { kind: K }>;

/** Whether `version` is newer than the stored (or tombstone) version; records it when so. */
const guard = (versions: Map<string, number>, id: string, version: number): boolean => {
  const stored = versions.get(id);
  if (stored !== undefined && version <= stored) return false;
  versions.set(id, version);
  return true;
};

const putItem = (records: MemoryRecords, { item }: Op<'item.put'>): boolean => {
  if (!guard(records.itemVersions, item.dataId, item.version)) return false;
  const previous = records.items.get(item.dataId);
  if (previous && previous.collectionId !== item.collectionId) {
    leaveCollection(records, previous);
    touchCollection(records, previous.collectionId, item.position);
  }
  records.items.set(item.dataId, item);
  enterCollection(records, item);
  touchCollection(records, item.collectionId, item.position);
  return true;
};

const deleteItem = (records: MemoryRecords, op: Op<'item.delete'>): boolean => {
  if (!guard(records.itemVersions, op.dataId, op.version)) return false;
  const previous = records.items.get(op.dataId);
  if (previous) leaveCollection(records, previous);
  records.items.delete(op.dataId);
  touchCollection(records, op.collectionId, op.position);
  return true;
};

const putCollection = (records: MemoryRecords, { collection }: Op<'collection.put'>): boolean => {
  if (!guard(records.collectionVersions, collection.slug, collection.version)) return false;
  records.collections.set(collection.slug, collection);
  touchCollection(records, collection.slug, collection.position);
  const membership = records.memberships.get(collection.slug);
  // A field whose declaration went away or changed type is rebuilt on its next use.
  for (const [field, { kind }] of membership?.indexes ?? []) {
    if (sortKindOf(collection, field) !== kind) membership?.indexes.delete(field);
  }
  return true;
};

const deleteCollection = (records: MemoryRecords, op: Op<'collection.delete'>): boolean => {
  if (!guard(records.collectionVersions, op.slug, op.version)) return false;
  records.collections.delete(op.slug);
  records.memberships.delete(op.slug);
  touchCollection(records, op.slug, op.position);
  return true;
};

const putKey = (records: MemoryRecords, { key }: Op<'key.put'>): boolean => {
  if (!guard(records.keyVersions, key.keyId, key.version)) return false;
  const previous = records.keysById.get(key.keyId);
  if (previous && previous.keyHash !== key.keyHash) records.keysByHash.delete(previous.keyHash);
  records.keysById.set(key.keyId, key);
  records.keysByHash.set(key.keyHash, key);
  return true;
};

const deleteKey = (records: MemoryRecords, op: Op<'key.delete'>): boolean => {
  if (!guard(records.keyVersions, op.keyId, op.version)) return false;
  const previous = records.keysById.get(op.keyId);
  records.keysById.delete(op.keyId);
  for (const hash of [op.keyHash, previous?.keyHash]) {
    if (hash !== undefined && records.keysByHash.get(hash)?.keyId === op.keyId) records.keysByHash.delete(hash);
  }
  return true;
};

const putPlan = (records: MemoryRecords, { plan }: Op<'plan.put'>): boolean => {
  if (!guard(records.planVersions, 'plan', plan.version)) return false;
  records.plan = plan;
  return true;
};

/**
 * Applies one op to the memory records, guarded by the record's version (docs/read-models.md,
 * write rules). Synchronous, so each op is atomic. Returns whether it changed anything.
 */
export const applyMemoryOp = (records: MemoryRecords, op: ReadModelOp): boolean => {
  switch (op.kind) {
    case 'item.put':
      return putItem(records, op);
    case 'item.delete':
      return deleteItem(records, op);
    case 'collection.put':
      return putCollection(records, op);
    case 'collection.delete':
      return deleteCollection(records, op);
    case 'key.put':
      return putKey(records, op);
    case 'key.delete':
      return deleteKey(records, op);
    case 'plan.put':
      return putPlan(records, op);
    default: {
      const _never: never = op;
      throw new ValidationError(`Unknown read model op ${JSON.stringify(_never)}`);
    }
  }
};
