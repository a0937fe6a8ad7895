import { createClient, type PubstreamClient } from '@pubstream/client';
import type { StartedTestContainer } from 'testcontainers';
import { adminRequester, createApiKey, type AdminRequest } from './adminApi.js';
import type { ApiKeyOptions } from './options.js';
import type { RunningProfile } from './profileSettings.js';

/** A running Pubstream (one container, or the distributed profile's five) and a ready client. */
export class StartedPubstreamContainer {
  /** The public read API, e.g. `http://localhost:32768`. */
  readonly publicUrl: string;
  /** The admin API and dashboard. */
  readonly adminUrl: string;
  readonly adminToken: string;
  /** The key made by withApiKey() (a test key when none was asked for). */
  readonly apiKey: string;
  /** A @pubstream/client for publicUrl with apiKey, in reactive mode (watchData, watchCollection). */
  readonly client: PubstreamClient;
  /** JSON requests to the admin API with the token: `admin('PUT', '/admin/collections/news/items/a', { data })`. */
  readonly admin: AdminRequest;
  readonly #profile: RunningProfile;

  constructor(profile: RunningProfile, adminToken: string, apiKey: string) {
    this.#profile = profile;
    this.publicUrl = profile.publicUrl;
    this.adminUrl = profile.adminUrl;
    this.adminToken = adminToken;
    this.apiKey = apiKey;
    this.admin = adminRequester(profile.adminUrl, adminToken);
    this.client = createClient({ baseUrl: profile.publicUrl, apiKey, reactive: true });
  }

  /** The started containers: the Pubstream one, or redis, kafka, admin, projector and api. */
  get containers(): readonly StartedTestContainer[] {
    return this.#profile.containers;
  }

  /** Another API key; returns the raw key (shown only once by the admin API). */
  createApiKey(options: ApiKeyOptions = {}): Promise<string> {
    return createApiKey(this.admin, options);
  }

  /** Closes the client's stream and removes every container (and network and volume) it started. */
  async stop(): Promise<void> {
    this.client.close();
    await this.#profile.stop();
  }
}
