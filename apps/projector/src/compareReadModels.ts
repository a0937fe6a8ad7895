import type { ItemRecord, KeyStore, ReadModel } from '@pubstream/read-model';

/** What the comparison reads: everything a reader can see. */
export interface ComparedStores {
  readonly readModel: Pick<ReadModel, 'listCollections' | 'getCollectionPage'>;
  readonly keys: Pick<KeyStore, 'listKeys' | 'getPlan'>;
}

/** One record that differs between two read models (null = missing on that side). */
export interface ReadModelDifference {
  readonly kind: 'collection' | 'item' | 'key' | 'plan';
  readonly id: string;
  readonly live: unknown;
  readonly rebuilt: unknown;
}

const PAGE = 100;

const allItems = async (readModel: ComparedStores['readModel'], slug: string): Promise<ItemRecord[]> => {
  const items: ItemRecord[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await readModel.getCollectionPage(slug, { sort: 'dataId', order: 'asc', offset, limit: PAGE });
    if (!page) return items;
    items.push(...page.items);
    if (page.items.length < PAGE) return items;
  }
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const diffById = <T>(kind: ReadModelDifference['kind'], live: Map<string, T>, rebuilt: Map<string, T>, out: ReadModelDifference[]): void => {
  for (const id of [...new Set([...live.keys(), ...rebuilt.keys()])].sort()) {
    const a = live.get(id) ?? null;
    const b = rebuilt.get(id) ?? null;
    if (!same(a, b)) out.push({ kind, id, live: a, rebuilt: b });
  }
};

/**
 * Everything a reader can see in `live` that differs from `rebuilt`: collections, their items
 * (paged, in dataId order), keys and the plan. Empty when the two are equal. For `--dry-run`.
 */
export const compareReadModels = async (live: ComparedStores, rebuilt: ComparedStores): Promise<ReadModelDifference[]> => {
  const differences: ReadModelDifference[] = [];
  const [liveCollections, rebuiltCollections] = await Promise.all([live.readModel.listCollections(), rebuilt.readModel.listCollections()]);
  diffById('collection', new Map(liveCollections.map((c) => [c.slug, c])), new Map(rebuiltCollections.map((c) => [c.slug, c])), differences);
  const slugs = [...new Set([...liveCollections, ...rebuiltCollections].map((c) => c.slug))];
  for (const slug of slugs) {
    const [a, b] = await Promise.all([allItems(live.readModel, slug), allItems(rebuilt.readModel, slug)]);
    diffById('item', new Map(a.map((i) => [i.dataId, i])), new Map(b.map((i) => [i.dataId, i])), differences);
  }
  const [liveKeys, rebuiltKeys] = await Promise.all([live.keys.listKeys(), rebuilt.keys.listKeys()]);
  diffById('key', new Map(liveKeys.map((k) => [k.keyId, k])), new Map(rebuiltKeys.map((k) => [k.keyId, k])), differences);
  const [livePlan, rebuiltPlan] = await Promise.all([live.keys.getPlan(), rebuilt.keys.getPlan()]);
  if (!same(livePlan, rebuiltPlan)) differences.push({ kind: 'plan', id: 'plan', live: livePlan, rebuilt: rebuiltPlan });
  return differences;
};
