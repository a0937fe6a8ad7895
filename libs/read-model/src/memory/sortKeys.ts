import type { CollectionRecord, ItemRecord } from '../records.js';

/** Sort fields every collection has, whatever it declares. */
export const BUILT_IN_SORTS = ['createdAt', 'updatedAt', 'dataId'] as const;

/** How a sort field's values compare: numbers numerically, strings by Unicode code point. */
export type SortKind = 'number' | 'string';

/** A value an item sorts by; null means the item lacks the field (or has a value of the wrong type). */
export type SortKey = number | string | null;

/**
 * The kind of a sort field in a collection, or undefined when the collection cannot be sorted by
 * it. createdAt/updatedAt sort as epoch milliseconds, dataId as a string.
 */
export const sortKindOf = (collection: CollectionRecord | null, field: string): SortKind | undefined => {
  if (field === 'createdAt' || field === 'updatedAt') return 'number';
  if (field === 'dataId') return 'string';
  return collection?.sortableFields.find((f) => f.name === field)?.type;
};

/**
 * Rewrites a string so that comparing code units (`<`) orders by code point, which is UTF-8 byte
 * order, which is what Redis compares: surrogates (D800–DFFF) move above E000–FFFF.
 */
export const toCodePointOrder = (value: string): string => {
  if (!/[\uD800-\uFFFF]/.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xe000) out += String.fromCharCode(unit - 0x800);
    else if (unit >= 0xd800) out += String.fromCharCode(unit + 0x2000);
    else out += value[i];
  }
  return out;
};

/** The key an item sorts by for a field of the given kind (null = missing). */
export const sortKeyOf = (item: ItemRecord, field: string, kind: SortKind): SortKey => {
  if (field === 'createdAt' || field === 'updatedAt') {
    const ms = Date.parse(item[field]);
    return Number.isFinite(ms) ? ms : null;
  }
  if (field === 'dataId') return item.dataId;
  const value = item.data[field];
  if (kind === 'number') return typeof value === 'number' && Number.isFinite(value) ? value : null;
  return typeof value === 'string' ? toCodePointOrder(value) : null;
};

/**
 * Total order of the port: present values ascending, ties by dataId, items missing the field
 * after all others (by dataId). `desc` reverses values and ties but keeps missing items last.
 */
export const compareSortEntries = (a: { key: SortKey; dataId: string }, b: { key: SortKey; dataId: string }, order: 'asc' | 'desc' = 'asc'): number => {
  const dir = order === 'asc' ? 1 : -1;
  if (a.key === null || b.key === null) {
    if (a.key !== b.key) return a.key === null ? 1 : -1;
  } else if (a.key !== b.key) {
    return (a.key < b.key ? -1 : 1) * dir;
  }
  return a.dataId === b.dataId ? 0 : (a.dataId < b.dataId ? -1 : 1) * dir;
};
