import { ServiceUnavailableError } from '@pubstream/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryChannelPair } from './memoryChannelPair.js';
import { createIpcClient, IpcClosedError, serveIpc, type IpcChannel, type IpcClient } from './workerIpc.js';

const counting = (channel: IpcChannel) => {
  const sent: unknown[] = [];
  return { sent, channel: { send: (message: unknown) => (sent.push(message), channel.send(message)), onMessage: channel.onMessage } satisfies IpcChannel };
};

describe('worker IPC', () => {
  const clients: IpcClient[] = [];
  afterEach(() => clients.splice(0).forEach((client) => client.close()));
  const clientOf = (channel: IpcChannel, timeoutMs = 1_000) => {
    const client = createIpcClient(channel, { timeoutMs });
    clients.push(client);
    return client;
  };

  it('answers calls with the handlers of the other end, in one message per turn each way', async () => {
    const pair = createMemoryChannelPair();
    const worker = counting(pair.worker);
    const primary = counting(pair.primary);
    serveIpc(primary.channel, { add: (a: number, b: number) => a + b, echo: async (text: string) => `<${text}>` });
    const client = clientOf(worker.channel);
    await expect(Promise.all([client.call('add', [1, 2]), client.call('echo', ['x']), client.call('add', [40, 2])])).resolves.toEqual([3, '<x>', 42]);
    expect(worker.sent).toHaveLength(1);
    expect(primary.sent).toHaveLength(1);
  });

  it('rejects a call whose handler failed, or that names no handler, with the reason', async () => {
    const pair = createMemoryChannelPair();
    serveIpc(pair.primary, {
      fail: () => {
        throw new Error('broken');
      },
    });
    const client = clientOf(pair.worker);
    await expect(client.call('fail', [])).rejects.toThrow('broken');
    await expect(client.call('missing', [])).rejects.toThrow('unknown IPC method missing');
  });

  it('answers 503 (ServiceUnavailableError) when the other end does not answer in time, and never hangs', async () => {
    const pair = createMemoryChannelPair();
    serveIpc(pair.primary, { ok: () => true });
    pair.hold(true);
    const client = clientOf(pair.worker, 30);
    const error = await client.call('ok', []).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).status).toBe(503);
  });

  it('rejects pending and later calls with IpcClosedError once closed, or when the channel is gone', async () => {
    const pair = createMemoryChannelPair();
    pair.hold(true);
    const client = clientOf(pair.worker);
    const pending = client.call('ok', []);
    client.close();
    await expect(pending).rejects.toBeInstanceOf(IpcClosedError);
    await expect(client.call('ok', [])).rejects.toBeInstanceOf(IpcClosedError);
    const cut = createMemoryChannelPair();
    cut.cut();
    await expect(clientOf(cut.worker).call('ok', [])).rejects.toBeInstanceOf(IpcClosedError);
  });

  it('lets both ends call each other on one channel', async () => {
    const pair = createMemoryChannelPair();
    serveIpc(pair.primary, { who: () => 'primary' });
    serveIpc(pair.worker, { who: () => 'worker' });
    await expect(clientOf(pair.worker).call('who', [])).resolves.toBe('primary');
    await expect(clientOf(pair.primary).call('who', [])).resolves.toBe('worker');
  });
});
