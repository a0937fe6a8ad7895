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
  type Decider,
  type ItemData,
  type KeyType,
  type PlanName,
  type PubstreamEvent,
  type SortableField,
} from '@pubstream/domain';
import type { EventStore } from '@pubstream/event-store';
import { echoInput } from '@pubstream/http';
import type { KeyRecord, KeyUsage } from '@pubstream/read-model';
import type { AdminStores } from './adminStores.js';
import { parseAllowedDomains } from './allowedDomains.js';
import { createCommandHandler, type Decided } from './commandHandler.js';
import { deterministicUuid } from './idempotency.js';
import { createItemWriter } from './itemWriter.js';
import type { ReadYourWrites } from './readYourWrites.js';
import { beforeCommit } from './beforeCommit.js';
import { createCollectionDeletion } from './collectionDeletion.js';
import type { WriteOptions, WriteResult, Written } from './writeOutcome.js';
import { collectionViewOf, itemViewOf, keyViewOf, type CollectionView, type ItemView, type KeyView } from './writeViews.js';

export type { CollectionView, ItemView, KeyView } from './writeViews.js';
export type { RequestBinding, WriteOptions, WriteResult, Written } from './writeOutcome.js';

export interface AdminServiceDeps {
  readonly eventStore: EventStore;
  readonly stores: Pick<AdminStores, 'readModel' | 'keys' | 'usage'>;
  readonly readYourWrites: ReadYourWrites;
  readonly now: () => Date;
  readonly newId: () => string;
}

export interface PlanView {
  readonly plan: PlanName;
  readonly monthlyQuota: number | null;
  readonly limits: { readonly defaultRateLimit: number; readonly maxRateLimit: number; readonly reactive: boolean; readonly maxStreamsPerKey: number };
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


const required = <T>(value: T | null, error: () => Error): T => {
  if (value === null) throw error();
  return value;
};

/**
 * The admin's use cases: every write is command → decider → append, answered from its own
 * events (then read-your-writes decides between the answer and 202); reads come from the read
 * models. Shared by the HTTP routes, the dashboard and the CLI.
 */
export const createAdminService = (deps: AdminServiceDeps) => {
  const commands = createCommandHandler({ eventStore: deps.eventStore, now: deps.now, newId: deps.newId });
  const writeItems = createItemWriter({ eventStore: deps.eventStore, commands });
  const { readYourWrites } = deps;
  const { readModel, keys, usage } = deps.stores;
  const { deleteItemsOf } = createCollectionDeletion({ eventStore: deps.eventStore, readModel, readYourWrites, writeItems });

  /**
   * One write: decide, append (with the idempotency record when the request is bound), then
   * wait for the read model. `result` builds the answer from the decision alone: it runs before
   * the append (for the record) and after it, so nothing after the commit reads the read model.
   * `recorded` strips what must never be stored (a raw API key) from the recorded answer.
   */
  const write = async <Command, State, Event extends PubstreamEvent, T>(
    decider: Decider<Command, State, Event>,
    streamName: string,
    command: Command | ((state: State) => Command),
    options: WriteOptions<T>,
    result: (decided: Decided<State, Event>) => WriteResult<T>,
    recorded: (result: WriteResult<T>) => WriteResult<T> = (same) => same,
  ): Promise<Written<T>> => {
    const { binding, idempotencyKey } = options;
    const record =
      binding === undefined
        ? undefined
        : (decided: Decided<State, Event>) => ({ type: 'RecordRequest' as const, fingerprint: binding.fingerprint, method: binding.method, path: binding.path, response: binding.answer(recorded(result(decided))) });
    const outcome = await commands.handle(decider, streamName, command, { idempotencyKey, record });
    const answer = result(outcome);
    return { ...answer, replayed: outcome.replayed, position: outcome.position, visible: await readYourWrites(outcome.position) };
  };

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
    new Map((keyIds.length === 0 ? [] : await usage.getUsage(keyIds)).map((entry) => [entry.keyId, entry]));

  const keyViewById = async (keyId: string): Promise<KeyView> => {
    const record = await keys.getKey(keyId);
    if (!record) throw new NotFoundError(`API key "${echoInput(keyId)}" not found`);
    return keyView(record, (await usageOf([keyId])).get(keyId));
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

    /** A new collection holds no items: its answer needs nothing from the read model. */
    createCollection(input: { slug: string; name: string; sortableFields: SortableField[] }, options: WriteOptions<CollectionView> = {}): Promise<Written<CollectionView>> {
      return write(collectionDecider, streamNames.collection(input.slug), { type: 'CreateCollection', ...input }, options, (decided) => ({
        value: required(collectionViewOf(decided.history, 0), () => new ConflictError(`Collection "${input.slug}" was deleted`)),
        created: decided.events.some((event) => event.type === 'CollectionCreated'),
      }));
    },

    /** The item count is read before the write (503 when the read model is unreachable). */
    async updateCollection(slug: string, input: { name?: string; sortableFields?: SortableField[] }, options: WriteOptions<CollectionView> = {}): Promise<Written<CollectionView>> {
      requireSlugShape(slug);
      const itemCount = await beforeCommit('counting the items', () => readModel.countItems(slug));
      return write(collectionDecider, streamNames.collection(slug), { type: 'UpdateCollection', slug, ...input }, options, (decided) => ({
        value: required(collectionViewOf(decided.history, itemCount), () => new NotFoundError(`Collection "${slug}" not found`)),
        created: false,
      }));
    },

    /** Deletes the collection's items (one ItemDeleted each), then the collection. */
    async deleteCollection(slug: string, options: WriteOptions<null> = {}): Promise<Written<null> & { deletedItems: number }> {
      requireSlugShape(slug);
      const before = await commands.load(collectionDecider, streamNames.collection(slug));
      // A retried delete whose first attempt went through answers as it did then (decided below).
      const items = before.status === 'active' ? await deleteItemsOf(slug, options.idempotencyKey) : { deletedItems: 0, position: null };
      const written = await write(collectionDecider, streamNames.collection(slug), { type: 'DeleteCollection', slug }, options, () => ({ value: null, created: false }));
      if (written.position !== null || items.position === null) return { ...written, deletedItems: items.deletedItems };
      return { ...written, position: items.position, visible: await readYourWrites(items.position), deletedItems: items.deletedItems };
    },

    async getItem(slug: string, dataId: string): Promise<ItemView> {
      requireDataId(dataId);
      await activeCollection(slug);
      const item = await readModel.getItem(dataId);
      if (!item || item.collectionId !== slug) throw new NotFoundError();
      return { id: item.id, dataId: item.dataId, collectionId: item.collectionId, data: item.data, createdAt: item.createdAt, updatedAt: item.updatedAt };
    },

    async putItem(slug: string, dataId: string, data: ItemData, options: WriteOptions<ItemView> = {}): Promise<Written<ItemView>> {
      requireDataId(dataId);
      await activeCollection(slug);
      const id = options.idempotencyKey === undefined ? deps.newId() : deterministicUuid('item', options.idempotencyKey, dataId);
      return write(itemDecider, streamNames.item(dataId), { type: 'PutItem', id, dataId, collection: slug, data }, options, (decided) => {
        const view = required(itemViewOf(decided.history), () => new NotFoundError());
        if (view.collectionId !== slug) throw new ConflictError(`dataId "${dataId}" already belongs to collection "${view.collectionId}"`);
        return { value: view, created: decided.events[0]?.type === 'ItemCreated' };
      });
    },

    async deleteItem(slug: string, dataId: string, options: WriteOptions<null> = {}): Promise<Written<null>> {
      requireDataId(dataId);
      await activeCollection(slug);
      return write(itemDecider, streamNames.item(dataId), { type: 'DeleteItem', dataId, collection: slug }, options, () => ({ value: null, created: false }));
    },

    async listKeys(): Promise<KeyView[]> {
      const records = await keys.listKeys();
      const usage = await usageOf(records.map((record) => record.keyId));
      return records.map((record) => keyView(record, usage.get(record.keyId))).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
    },

    getKey: keyViewById,

    /**
     * Creates a key and returns it in full, the only time it is ever shown. With an Idempotency-Key
     * the key id derives from it; a retry gets the recorded answer with `key: null`, because the
     * raw key was never stored (not even in the idempotency record).
     */
    async createKey(
      input: { name: string; type: KeyType; allowedDomains: readonly string[] | string; rateLimit?: number },
      options: WriteOptions<KeyView & { key: string | null }> = {},
    ): Promise<Written<KeyView & { key: string | null }>> {
      const allowedDomains = parseAllowedDomains(input.allowedDomains);
      const plan = PLANS[(await currentPlan()).plan];
      const keyId = options.idempotencyKey === undefined ? deps.newId() : deterministicUuid('apikey', options.idempotencyKey);
      const key = generateApiKey(input.type);
      const command = {
        type: 'CreateApiKey' as const,
        keyId,
        name: input.name,
        keyType: input.type,
        keyHash: hashApiKey(key),
        last4: key.slice(-4),
        allowedDomains,
        rateLimit: input.rateLimit ?? plan.defaultRateLimit,
        maxRateLimit: plan.maxRateLimit,
      };
      return write(
        apiKeyDecider,
        streamNames.apiKey(keyId),
        command,
        options,
        (decided) => ({
          value: { ...required(keyViewOf(decided.history, undefined), () => new NotFoundError(`API key "${keyId}" was deleted`)), key: decided.replayed ? null : key },
          created: true,
        }),
        (result) => ({ ...result, value: { ...result.value, key: null } }),
      );
    },

    /** Usage counters are read before the write (503 when the read model is unreachable). */
    async updateKey(keyId: string, input: { name?: string; allowedDomains?: readonly string[] | string; rateLimit?: number }, options: WriteOptions<KeyView> = {}): Promise<Written<KeyView>> {
      const allowedDomains = input.allowedDomains === undefined ? undefined : parseAllowedDomains(input.allowedDomains);
      const plan = PLANS[(await currentPlan()).plan];
      const usage = await beforeCommit('reading usage counters', () => usageOf([keyId]));
      return write(
        apiKeyDecider,
        streamNames.apiKey(keyId),
        { type: 'UpdateApiKey', keyId, name: input.name, allowedDomains, rateLimit: input.rateLimit, maxRateLimit: plan.maxRateLimit },
        options,
        (decided) => ({ value: required(keyViewOf(decided.history, usage.get(keyId)), () => new NotFoundError(`API key "${keyId}" not found`)), created: false }),
      );
    },

    deleteKey(keyId: string, options: WriteOptions<null> = {}): Promise<Written<null>> {
      return write(apiKeyDecider, streamNames.apiKey(keyId), { type: 'DeleteApiKey', keyId }, options, () => ({ value: null, created: false }));
    },

    async getPlan(): Promise<PlanView> {
      const state = await currentPlan();
      return planView(state.plan, state.monthlyQuota);
    },

    /**
     * Changes the plan. Keys configured above the new plan's maximum must be lowered first (409):
     * a downgrade never silently changes what existing keys allow. That check reads the keys
     * from the read model before the write (503 when it is unreachable).
     */
    async setPlan(input: { plan: PlanName; monthlyQuota?: number | null }, options: WriteOptions<PlanView> = {}): Promise<Written<PlanView>> {
      const maxRateLimit = PLANS[input.plan].maxRateLimit;
      const tooHigh = (await beforeCommit('reading the keys', () => keys.listKeys())).filter((key) => key.rateLimit > maxRateLimit);
      if (tooHigh.length > 0) {
        throw new ConflictError(
          `${tooHigh.length} key(s) have a rate limit above the ${input.plan} plan's maximum of ${maxRateLimit} (${tooHigh
            .slice(0, 5)
            .map((key) => key.name)
            .join(', ')}); lower them first`,
        );
      }
      return write(
        projectDecider,
        streamNames.project,
        (state) => ({ type: 'ChangePlan', plan: input.plan, monthlyQuota: input.monthlyQuota === undefined ? state.monthlyQuota : input.monthlyQuota }),
        options,
        (decided) => ({ value: planView(decided.state.plan, decided.state.monthlyQuota), created: false }),
      );
    },
  };
};

export type AdminService = ReturnType<typeof createAdminService>;
