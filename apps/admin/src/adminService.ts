import { generateApiKey, hashApiKey, maskApiKey } from '@pubstream/access';
import {
  apiKeyDecider,
  collectionDecider,
  ConflictError,
  itemDecider,
  NotFoundError,
  PLANS,
  projectDecider,
  streamNames,
  ValidationError,
  isValidDataId,
  isValidSlug,
  type CollectionState,
  type ItemData,
  type KeyType,
  type PlanName,
  type SortableField,
} from '@pubstream/domain';
import type { EventStore } from '@pubstream/event-store';
import { echoInput } from '@pubstream/http';
import type { KeyRecord, KeyUsage, ReadModel } from '@pubstream/read-model';
import { parseAllowedDomains } from './allowedDomains.js';
import { createCommandHandler } from './commandHandler.js';
import { deterministicUuid } from './idempotency.js';
import { createItemWriter } from './itemWriter.js';
import type { ReadYourWrites } from './readYourWrites.js';

export interface AdminServiceDeps {
  readonly eventStore: EventStore;
  readonly readModel: ReadModel;
  readonly readYourWrites: ReadYourWrites;
  readonly now: () => Date;
  readonly newId: () => string;
}

export interface WriteOptions {
  readonly idempotencyKey?: string;
}

export interface CollectionView {
  readonly slug: string;
  readonly name: string;
  readonly sortableFields: readonly SortableField[];
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly itemCount: number;
}

export interface ItemView {
  readonly id: string;
  readonly dataId: string;
  readonly collectionId: string;
  readonly data: ItemData;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

export interface KeyView {
  readonly keyId: string;
  readonly name: string;
  readonly type: KeyType;
  readonly maskedKey: string;
  readonly allowedDomains: readonly string[];
  readonly rateLimit: number;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly requestCount: number;
}

export interface PlanView {
  readonly plan: PlanName;
  readonly monthlyQuota: number | null;
  readonly limits: { readonly defaultRateLimit: number; readonly maxRateLimit: number; readonly reactive: boolean; readonly maxStreamsPerKey: number };
}

/** The outcome of a write: what to show, and whether this was an idempotent replay. */
export interface Written<T> {
  readonly value: T;
  readonly created: boolean;
  readonly replayed: boolean;
}

const keyView = (record: KeyRecord, usage: KeyUsage | undefined): KeyView => ({
  keyId: record.keyId,
  name: record.name,
  type: record.type,
  maskedKey: maskApiKey(record.type, record.last4),
  allowedDomains: record.allowedDomains,
  rateLimit: record.rateLimit,
  createdAt: record.createdAt,
  lastUsedAt: usage?.lastUsedAt ?? null,
  requestCount: usage?.requestCount ?? 0,
});

const planView = (plan: PlanName, monthlyQuota: number | null): PlanView => {
  const { defaultRateLimit, maxRateLimit, reactive, maxStreamsPerKey } = PLANS[plan];
  return { plan, monthlyQuota, limits: { defaultRateLimit, maxRateLimit, reactive, maxStreamsPerKey } };
};

/** Collection slugs come from URLs: one that cannot exist is simply not found. */
const requireSlugShape = (slug: string): void => {
  if (!isValidSlug(slug)) throw new NotFoundError(`Collection "${echoInput(slug)}" not found`);
};

export const requireDataId = (dataId: string): void => {
  if (!isValidDataId(dataId)) throw new ValidationError('Invalid dataId format');
};

const DELETE_BATCH = 500;

/**
 * The admin's use cases: every write is command → decider → append (with read-your-writes);
 * reads come from the read models. Shared by the HTTP routes, the dashboard and the CLI.
 */
export const createAdminService = (deps: AdminServiceDeps) => {
  const commands = createCommandHandler({ eventStore: deps.eventStore, now: deps.now, newId: deps.newId });
  const writeItems = createItemWriter({ eventStore: deps.eventStore, commands });
  const { readModel, readYourWrites } = deps;

  const activeCollection = async (slug: string): Promise<Extract<CollectionState, { status: 'active' }>> => {
    requireSlugShape(slug);
    const state = await commands.load(collectionDecider, streamNames.collection(slug));
    if (state.status !== 'active') throw new NotFoundError(`Collection "${slug}" not found`);
    return state;
  };

  const collectionView = async (state: { slug: string; name: string; sortableFields: readonly SortableField[] }): Promise<CollectionView> => {
    const [record, itemCount] = await Promise.all([readModel.getCollection(state.slug), readModel.countItems(state.slug)]);
    return {
      slug: state.slug,
      name: state.name,
      sortableFields: state.sortableFields,
      createdAt: record?.createdAt ?? null,
      updatedAt: record?.updatedAt ?? null,
      itemCount,
    };
  };

  const currentPlan = () => commands.load(projectDecider, streamNames.project);

  const usageOf = async (keyIds: readonly string[]): Promise<Map<string, KeyUsage>> =>
    new Map((keyIds.length === 0 ? [] : await readModel.getUsage(keyIds)).map((usage) => [usage.keyId, usage]));

  const keyViewById = async (keyId: string): Promise<KeyView> => {
    const record = await readModel.getKey(keyId);
    if (!record) throw new NotFoundError(`API key "${echoInput(keyId)}" not found`);
    return keyView(record, (await usageOf([keyId])).get(keyId));
  };

  /** Item ids of a collection from the read model, after it has caught up with the log. */
  const listDataIds = async (slug: string): Promise<string[]> => {
    await readYourWrites(await deps.eventStore.headPosition());
    const dataIds: string[] = [];
    for (let offset = 0; ; offset += DELETE_BATCH) {
      const page = await readModel.getCollectionPage(slug, { sort: 'dataId', order: 'asc', offset, limit: DELETE_BATCH });
      if (!page) break;
      dataIds.push(...page.items.map((item) => item.dataId));
      if (page.items.length < DELETE_BATCH) break;
    }
    return dataIds;
  };

  return {
    commands,
    writeItems,
    activeCollection,

    async listCollections(): Promise<CollectionView[]> {
      const records = await readModel.listCollections();
      const views = await Promise.all(records.map((record) => collectionView(record)));
      return views.sort((a, b) => a.slug.localeCompare(b.slug));
    },

    async getCollection(slug: string): Promise<CollectionView> {
      return collectionView(await activeCollection(slug));
    },

    async createCollection(input: { slug: string; name: string; sortableFields: SortableField[] }, options: WriteOptions = {}): Promise<Written<CollectionView>> {
      const outcome = await commands.handle(collectionDecider, streamNames.collection(input.slug), { type: 'CreateCollection', ...input }, options);
      await readYourWrites(outcome.position);
      if (outcome.state.status !== 'active') throw new ConflictError(`Collection "${input.slug}" was deleted`);
      return { value: await collectionView(outcome.state), created: !outcome.replayed, replayed: outcome.replayed };
    },

    async updateCollection(slug: string, input: { name?: string; sortableFields?: SortableField[] }, options: WriteOptions = {}): Promise<Written<CollectionView>> {
      requireSlugShape(slug);
      const outcome = await commands.handle(collectionDecider, streamNames.collection(slug), { type: 'UpdateCollection', slug, ...input }, options);
      await readYourWrites(outcome.position);
      if (outcome.state.status !== 'active') throw new NotFoundError(`Collection "${slug}" not found`);
      return { value: await collectionView(outcome.state), created: false, replayed: outcome.replayed };
    },

    /** Deletes the collection's items (one ItemDeleted each), then the collection. */
    async deleteCollection(slug: string, options: WriteOptions = {}): Promise<{ deletedItems: number; replayed: boolean }> {
      requireSlugShape(slug);
      const before = await commands.load(collectionDecider, streamNames.collection(slug));
      if (before.status !== 'active') {
        // A retried delete whose first attempt went through answers as it did then.
        const outcome = await commands.handle(collectionDecider, streamNames.collection(slug), { type: 'DeleteCollection', slug }, options);
        return { deletedItems: 0, replayed: outcome.replayed };
      }
      const dataIds = await listDataIds(slug);
      let deletedItems = 0;
      let position: number | null = null;
      for (let start = 0; start < dataIds.length; start += DELETE_BATCH) {
        const chunk = dataIds.slice(start, start + DELETE_BATCH);
        const outcomes = await writeItems(
          chunk.map((dataId) => ({ command: { type: 'DeleteItem', dataId, collection: slug }, idempotencyKey: options.idempotencyKey })),
        );
        for (const outcome of outcomes) {
          // NotFound: deleted meanwhile by someone else; that is the state we want anyway.
          if (!outcome.ok && !(outcome.error instanceof NotFoundError)) throw outcome.error;
          if (outcome.ok && outcome.change === 'deleted') deletedItems++;
          if (outcome.ok && outcome.position !== null) position = Math.max(position ?? 0, outcome.position);
        }
      }
      const outcome = await commands.handle(collectionDecider, streamNames.collection(slug), { type: 'DeleteCollection', slug }, options);
      await readYourWrites(outcome.position ?? position);
      return { deletedItems, replayed: outcome.replayed };
    },

    async getItem(slug: string, dataId: string): Promise<ItemView> {
      requireDataId(dataId);
      await activeCollection(slug);
      const item = await readModel.getItem(dataId);
      if (!item || item.collectionId !== slug) throw new NotFoundError();
      return { id: item.id, dataId: item.dataId, collectionId: item.collectionId, data: item.data, createdAt: item.createdAt, updatedAt: item.updatedAt };
    },

    async putItem(slug: string, dataId: string, data: ItemData, options: WriteOptions = {}): Promise<Written<ItemView>> {
      requireDataId(dataId);
      await activeCollection(slug);
      const id = options.idempotencyKey === undefined ? deps.newId() : deterministicUuid('item', options.idempotencyKey, dataId);
      const outcome = await commands.handle(itemDecider, streamNames.item(dataId), { type: 'PutItem', id, dataId, collection: slug, data }, options);
      await readYourWrites(outcome.position);
      const { state } = outcome;
      if (state.status !== 'active') throw new NotFoundError();
      if (state.collection !== slug) throw new ConflictError(`dataId "${dataId}" already belongs to collection "${state.collection}"`);
      const record = await readModel.getItem(dataId);
      const created = outcome.events[0]?.type === 'ItemCreated';
      return {
        value: { id: state.id, dataId, collectionId: slug, data: state.data, createdAt: record?.createdAt ?? null, updatedAt: record?.updatedAt ?? null },
        created,
        replayed: outcome.replayed,
      };
    },

    async deleteItem(slug: string, dataId: string, options: WriteOptions = {}): Promise<{ replayed: boolean }> {
      requireDataId(dataId);
      await activeCollection(slug);
      const outcome = await commands.handle(itemDecider, streamNames.item(dataId), { type: 'DeleteItem', dataId, collection: slug }, options);
      await readYourWrites(outcome.position);
      return { replayed: outcome.replayed };
    },

    async listKeys(): Promise<KeyView[]> {
      const records = await readModel.listKeys();
      const usage = await usageOf(records.map((record) => record.keyId));
      return records.map((record) => keyView(record, usage.get(record.keyId))).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
    },

    getKey: keyViewById,

    /**
     * Creates a key and returns it in full, the only time it is ever shown. With an Idempotency-Key
     * the key id derives from it; a retry finds the key already created and returns it masked
     * (`key: null`), because the raw key was never stored.
     */
    async createKey(
      input: { name: string; type: KeyType; allowedDomains: readonly string[] | string; rateLimit?: number },
      options: WriteOptions = {},
    ): Promise<Written<KeyView & { key: string | null }>> {
      const allowedDomains = parseAllowedDomains(input.allowedDomains);
      const plan = PLANS[(await currentPlan()).plan];
      const keyId = options.idempotencyKey === undefined ? deps.newId() : deterministicUuid('apikey', options.idempotencyKey);
      const key = generateApiKey(input.type);
      const outcome = await commands.handle(
        apiKeyDecider,
        streamNames.apiKey(keyId),
        {
          type: 'CreateApiKey',
          keyId,
          name: input.name,
          keyType: input.type,
          keyHash: hashApiKey(key),
          last4: key.slice(-4),
          allowedDomains,
          rateLimit: input.rateLimit ?? plan.defaultRateLimit,
          maxRateLimit: plan.maxRateLimit,
        },
        options,
      );
      await readYourWrites(outcome.position);
      if (outcome.replayed) {
        if (outcome.state.status !== 'active') throw new NotFoundError(`API key "${keyId}" was deleted`);
        return { value: { ...(await keyViewById(keyId)), key: null }, created: false, replayed: true };
      }
      const record = await readModel.getKey(keyId);
      const view: KeyView = record
        ? keyView(record, undefined)
        : {
            keyId,
            name: input.name,
            type: input.type,
            maskedKey: maskApiKey(input.type, key.slice(-4)),
            allowedDomains,
            rateLimit: input.rateLimit ?? plan.defaultRateLimit,
            createdAt: deps.now().toISOString(),
            lastUsedAt: null,
            requestCount: 0,
          };
      return { value: { ...view, key }, created: true, replayed: false };
    },

    async updateKey(keyId: string, input: { name?: string; allowedDomains?: readonly string[] | string; rateLimit?: number }, options: WriteOptions = {}): Promise<Written<KeyView>> {
      const allowedDomains = input.allowedDomains === undefined ? undefined : parseAllowedDomains(input.allowedDomains);
      const plan = PLANS[(await currentPlan()).plan];
      const outcome = await commands.handle(
        apiKeyDecider,
        streamNames.apiKey(keyId),
        { type: 'UpdateApiKey', keyId, name: input.name, allowedDomains, rateLimit: input.rateLimit, maxRateLimit: plan.maxRateLimit },
        options,
      );
      await readYourWrites(outcome.position);
      return { value: await keyViewById(keyId), created: false, replayed: outcome.replayed };
    },

    async deleteKey(keyId: string, options: WriteOptions = {}): Promise<{ replayed: boolean }> {
      const outcome = await commands.handle(apiKeyDecider, streamNames.apiKey(keyId), { type: 'DeleteApiKey', keyId }, options);
      await readYourWrites(outcome.position);
      return { replayed: outcome.replayed };
    },

    async getPlan(): Promise<PlanView> {
      const state = await currentPlan();
      return planView(state.plan, state.monthlyQuota);
    },

    /**
     * Changes the plan. Keys configured above the new plan's maximum must be lowered first (409):
     * a downgrade never silently changes what existing keys allow.
     */
    async setPlan(input: { plan: PlanName; monthlyQuota?: number | null }, options: WriteOptions = {}): Promise<Written<PlanView>> {
      const maxRateLimit = PLANS[input.plan].maxRateLimit;
      const tooHigh = (await readModel.listKeys()).filter((key) => key.rateLimit > maxRateLimit);
      if (tooHigh.length > 0) {
        throw new ConflictError(
          `${tooHigh.length} key(s) have a rate limit above the ${input.plan} plan's maximum of ${maxRateLimit} (${tooHigh
            .slice(0, 5)
            .map((key) => key.name)
            .join(', ')}); lower them first`,
        );
      }
      const outcome = await commands.handle(
        projectDecider,
        streamNames.project,
        (state) => ({ type: 'ChangePlan', plan: input.plan, monthlyQuota: input.monthlyQuota === undefined ? state.monthlyQuota : input.monthlyQuota }),
        options,
      );
      await readYourWrites(outcome.position);
      return { value: planView(outcome.state.plan, outcome.state.monthlyQuota), created: false, replayed: outcome.replayed };
    },
  };
};

export type AdminService = ReturnType<typeof createAdminService>;
