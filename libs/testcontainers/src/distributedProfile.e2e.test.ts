// PubstreamContainer's distributed profile: Redis, Kafka, and the Pubstream image as admin,
// projector and api on one container network. Seeded data is readable when start() resolves, a
// write through the admin API reaches a live subscriber through Kafka, and stop() leaves nothing.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { getContainerRuntimeClient } from 'testcontainers';
import { describeWithContainers } from '@pubstream/testing';
import { PubstreamContainer } from './pubstreamContainer.js';
import type { StartedPubstreamContainer } from './startedPubstreamContainer.js';

describeWithContainers('@pubstream/testcontainers: the distributed profile', ['pubstream', 'redis', 'kafka'], (support) => {
  let pubstream: StartedPubstreamContainer;
  let ids: string[] = [];

  beforeAll(async () => {
    pubstream = await new PubstreamContainer(support.images.pubstream)
      .withDistributedProfile({ redisImage: support.images.redis, kafkaImage: support.images.kafka })
      .withCollection('books', [
        { dataId: 'dune', data: { title: 'Dune', year: 1965 } },
        { dataId: 'emma', data: { title: 'Emma', year: 1815 } },
      ], { sortableFields: [{ name: 'year', type: 'number' }] })
      .withApiKey({ type: 'test', name: 'distributed' })
      .withLabels(support.labels)
      .start();
    ids = pubstream.containers.map((container) => container.getId());
    const client = await getContainerRuntimeClient();
    const described = await Promise.all(
      ids.map(async (id) => {
        const { Config } = await client.container.inspect(client.container.getById(id));
        return `${Config.Image}${Config.Image === support.images.pubstream ? ` ${Config.Cmd?.join(' ')}` : ''} ${id.slice(0, 12)}`;
      }),
    );
    console.log(`[containers] distributed profile: ${described.join(', ')}`);
  }, 300_000);

  afterAll(async () => {
    await pubstream?.stop();
  });

  it('runs redis, kafka, admin, projector and api as containers of the local images', async () => {
    const client = await getContainerRuntimeClient();
    const images = await Promise.all(ids.map(async (id) => (await client.container.inspect(client.container.getById(id))).Config.Image));
    expect(images.sort()).toEqual([support.images.kafka, support.images.pubstream, support.images.pubstream, support.images.pubstream, support.images.redis].sort());
  });

  it('serves the seeded collection, sorted by a declared field, from Redis', async () => {
    const page = await pubstream.client.fetchCollection('books', { sort: 'year', order: 'asc' });
    expect(page.total).toBe(2);
    expect(page.data.map((item) => item.dataId)).toEqual(['emma', 'dune']);
  });

  it('delivers a write through the admin API to a live subscriber, through Kafka', async () => {
    const seen: unknown[] = [];
    let subscribed = () => {};
    const ready = new Promise<void>((resolve) => (subscribed = resolve));
    const stop = pubstream.client.watchData('ulysses', (item) => {
      if (item === null) subscribed();
      else seen.push(item.data);
    });
    await ready;
    await pubstream.admin('PUT', '/admin/collections/books/items/ulysses', { data: { title: 'Ulysses', year: 1922 } });
    await vi.waitFor(() => expect(seen).toEqual([{ title: 'Ulysses', year: 1922 }]), { timeout: 15_000 });
    stop();
  });

  it('removes every container, the network and the log volume on stop()', async () => {
    const client = await getContainerRuntimeClient();
    const networks = new Set(
      (await Promise.all(ids.map(async (id) => Object.keys((await client.container.inspect(client.container.getById(id))).NetworkSettings.Networks))))
        .flat()
        .filter((name) => name !== 'bridge'), // Docker's default network, not ours to remove
    );
    expect(networks.size).toBe(1);
    await pubstream.stop();
    const remaining = (await client.container.list()).filter((container) => ids.includes(container.Id));
    expect(remaining).toEqual([]);
    const networkNames = (await client.container.dockerode.listNetworks()).map((network) => network.Name);
    expect(networkNames.filter((name) => networks.has(name))).toEqual([]);
    const volumes = (await client.container.dockerode.listVolumes()).Volumes ?? [];
    expect(volumes.map((volume) => volume.Name).filter((name) => name.startsWith('pubstream-log-'))).toEqual([]);
  }, 120_000);
});
