import { randomUUID } from 'node:crypto';
import type { KeyType, PlanName } from '@pubstream/domain';
import { APPLIED_CHECKPOINT, withPosition, type ReadModelOp, type Stores } from '@pubstream/read-model';
import type { ChangeMessage, ChangeStream } from '@pubstream/change-stream';
import { generateApiKey, hashApiKey } from '@pubstream/access';

const stamp = (): string => new Date().toISOString();

/**
 * The writes of the subscribe test world, playing the projector: each applies its operations to
 * the stores, then publishes its change messages (unless told to lose them). Methods are bound:
 * the world hands them out as they are.
 */
export class WorldWrites {
  private readonly versions = new Map<string, number>();
  private readonly keys = new Map<string, { keyHash: string }>();
  private position = 0;

  constructor(
    private readonly stores: Pick<Stores, 'readModel' | 'projections'>,
    private readonly changeStream: ChangeStream,
    private readonly resumeWindowMs = 86_400_000,
  ) {}

  readonly putCollection = async (slug: string): Promise<void> => {
    const version = this.nextVersion(`collection-${slug}`);
    const at = stamp();
    await this.write([{ kind: 'collection.put', collection: { slug, name: slug, sortableFields: [], createdAt: at, updatedAt: at, version, position: 0 } }], (pos) => [
      { kind: 'collection', action: 'update', slug, version, position: pos },
    ]);
  };

  readonly deleteCollection = async (slug: string): Promise<void> => {
    const version = this.nextVersion(`collection-${slug}`);
    await this.write([{ kind: 'collection.delete', slug, version, position: 0 }], (pos) => [{ kind: 'collection', action: 'delete', slug, version, position: pos }]);
  };

  /** Creates or updates an item; returns its new version. `publish: false` loses the change message. */
  readonly putItem = async (slug: string, dataId: string, data: Record<string, unknown>, options: { publish?: boolean } = {}): Promise<number> => {
    const version = this.nextVersion(`item-${dataId}`);
    const existing = await this.stores.readModel.getItem(dataId);
    const at = stamp();
    const item = { id: existing?.id ?? randomUUID(), dataId, collectionId: slug, data, createdAt: existing?.createdAt ?? at, updatedAt: at, version, position: 0 };
    await this.write(
      [{ kind: 'item.put', item }],
      (pos) => [{ kind: 'item', action: 'update', dataId, collectionId: slug, version, position: pos, data }],
      options.publish ?? true,
    );
    return version;
  };

  readonly deleteItem = async (slug: string, dataId: string): Promise<number> => {
    const version = this.nextVersion(`item-${dataId}`);
    await this.write([{ kind: 'item.delete', dataId, collectionId: slug, version, position: 0 }], (pos) => [
      { kind: 'item', action: 'delete', dataId, collectionId: slug, version, position: pos, data: {} },
    ]);
    return version;
  };

  readonly createKey = async (options: { type?: KeyType; allowedDomains?: string[]; rateLimit?: number } = {}): Promise<{ apiKey: string; keyId: string }> => {
    const type = options.type ?? 'live';
    const apiKey = generateApiKey(type);
    const keyId = randomUUID();
    const keyHash = hashApiKey(apiKey);
    const version = this.nextVersion(`apikey-${keyId}`);
    this.keys.set(keyId, { keyHash });
    const key = { keyId, keyHash, name: 'test', type, last4: apiKey.slice(-4), allowedDomains: options.allowedDomains ?? ['app.example.com'], rateLimit: options.rateLimit ?? 1000, createdAt: stamp(), version };
    await this.write([{ kind: 'key.put', key }], (pos) => [{ kind: 'key', action: 'update', keyId, keyHash, version, position: pos }]);
    return { apiKey, keyId };
  };

  readonly deleteKey = async (keyId: string): Promise<void> => {
    const keyHash = this.keys.get(keyId)?.keyHash ?? '';
    const version = this.nextVersion(`apikey-${keyId}`);
    await this.write([{ kind: 'key.delete', keyId, keyHash, version }], (pos) => [{ kind: 'key', action: 'delete', keyId, keyHash, version, position: pos }]);
  };

  readonly setPlan = async (plan: PlanName): Promise<void> => {
    const version = this.nextVersion('project');
    await this.write([{ kind: 'plan.put', plan: { plan, monthlyQuota: null, version } }], (pos) => [{ kind: 'plan', action: 'update', version, position: pos }]);
  };

  private nextVersion(stream: string): number {
    const version = (this.versions.get(stream) ?? -1) + 1;
    this.versions.set(stream, version);
    return version;
  }

  private async write(ops: ReadModelOp[], messages: (pos: number) => ChangeMessage[], publish = true): Promise<void> {
    const pos = ++this.position;
    // As the live projector writes: its applied checkpoint, with the change history recorded.
    await this.stores.projections.apply(
      ops.map((op) => withPosition(op, pos)),
      { projection: APPLIED_CHECKPOINT, position: pos },
      { history: { at: new Date(), windowMs: this.resumeWindowMs } },
    );
    if (publish) await this.changeStream.publish(messages(pos));
  }
}
