import { randomBytes } from 'node:crypto';
import { createClient } from '@pubstream/client';
import { adminRequester, createApiKey, seedCollection } from './adminApi.js';
import { defaultPubstreamImage } from './defaultImage.js';
import { startDistributedProfile } from './distributedProfile.js';
import { startEmbeddedProfile } from './embeddedProfile.js';
import type { ApiKeyOptions, CollectionOptions, CollectionSeed, DistributedProfileOptions, SeedItem } from './options.js';
import type { ProfileSettings, RunningProfile } from './profileSettings.js';
import { StartedPubstreamContainer } from './startedPubstreamContainer.js';

/**
 * Pubstream for integration tests (README.md):
 *
 *   const pubstream = await new PubstreamContainer()
 *     .withCollection('news', [{ dataId: 'welcome', data: { title: 'Hello' } }])
 *     .withApiKey({ type: 'test' })
 *     .start();
 *   await pubstream.client.fetchData('welcome');
 *
 * When start() resolves, every collection given here is readable through the public API with the key.
 */
export class PubstreamContainer {
  readonly #image: string;
  readonly #collections: CollectionSeed[] = [];
  #apiKey: ApiKeyOptions = { type: 'test' };
  #adminToken = `adm_${randomBytes(24).toString('base64url')}`;
  #environment: Record<string, string> = {};
  // Who started the containers: a cleanup can remove those whose process has died (as the
  // testcontainers reaper would, where its image cannot be pulled).
  #labels: Record<string, string> = { 'org.pubstream.owner-pid': String(process.pid) };
  #startupTimeoutMs = 120_000;
  #distributed: DistributedProfileOptions | null = null;

  /** `image`: default PUBSTREAM_IMAGE, else `pubstream:local` (infra/images/build.sh). */
  constructor(image: string = defaultPubstreamImage()) {
    this.#image = image;
  }

  /** A collection created, with these items, before start() resolves. */
  withCollection(slug: string, items: SeedItem[] = [], options: CollectionOptions = {}): this {
    this.#collections.push({ slug, items, ...options });
    return this;
  }

  /** The key `apiKey` and `client` use (default: a test key). */
  withApiKey(options: ApiKeyOptions = {}): this {
    this.#apiKey = { type: 'test', ...options };
    return this;
  }

  /** The admin token (default: a random one, readable as `adminToken`). At least 16 characters. */
  withAdminToken(token: string): this {
    this.#adminToken = token;
    return this;
  }

  /** Extra environment for the Pubstream processes (docs/operations.md lists the variables). */
  withEnvironment(environment: Record<string, string>): this {
    this.#environment = { ...this.#environment, ...environment };
    return this;
  }

  withLabels(labels: Record<string, string>): this {
    this.#labels = { ...this.#labels, ...labels };
    return this;
  }

  withStartupTimeout(ms: number): this {
    this.#startupTimeoutMs = ms;
    return this;
  }

  /**
   * Runs the distributed profile instead of one container: Redis, Kafka, and `pubstream admin`,
   * `projector` and `api` on one container network (the images default to the local builds).
   */
  withDistributedProfile(options: DistributedProfileOptions = {}): this {
    this.#distributed = options;
    return this;
  }

  async start(): Promise<StartedPubstreamContainer> {
    const settings: ProfileSettings = {
      image: this.#image,
      adminToken: this.#adminToken,
      environment: this.#environment,
      labels: this.#labels,
      startupTimeoutMs: this.#startupTimeoutMs,
    };
    const profile = this.#distributed ? await startDistributedProfile(settings, this.#distributed) : await startEmbeddedProfile(settings);
    try {
      for (const collection of this.#collections) await seedCollection(profile.adminUrl, this.#adminToken, collection);
      const apiKey = await createApiKey(adminRequester(profile.adminUrl, this.#adminToken), this.#apiKey);
      await this.#untilReadable(profile, apiKey);
      return new StartedPubstreamContainer(profile, this.#adminToken, apiKey);
    } catch (error) {
      await profile.stop();
      throw error;
    }
  }

  /**
   * The admin answers once the projector applied a write, so the data is normally readable at
   * once; this makes it a promise: each collection answers with all its items (bounded, 30 s).
   */
  async #untilReadable(profile: RunningProfile, apiKey: string): Promise<void> {
    const client = createClient({ baseUrl: profile.publicUrl, apiKey, retry: { maxAttempts: 1 } });
    const deadline = Date.now() + 30_000;
    for (const { slug, items } of this.#collections) {
      for (;;) {
        const page = client.fetchCollection(slug, { limit: 1, signal: AbortSignal.timeout(5_000) });
        const total = await page.then((found) => found.total, () => -1);
        if (total === items.length) break;
        if (Date.now() > deadline) throw new Error(`collection "${slug}" did not become readable with its ${items.length} items within 30 s (total: ${total})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}
