import { sleep } from '@pubstream/testing';

/** One admin write of a load: what was written, when, and how it was answered. */
export interface LoadWrite {
  readonly n: number;
  readonly dataId: string;
  readonly sentAt: number;
  answeredAt: number | null;
  status: number | null;
  error: string | null;
}

export interface WriteLoad {
  readonly writes: LoadWrite[];
  /** Stops sending and waits for every write in flight to be answered. */
  stop(): Promise<void>;
}

/**
 * A steady writer for fault tests: every 1/perSecond s one admin PUT of `{n}` to the next of
 * `dataIds` (round robin), without waiting for the previous answer, so a slow answer never slows
 * the load. Each write is bounded by `timeoutMs`.
 */
export const startWriteLoad = (options: {
  readonly adminUrl: string;
  readonly token: string;
  readonly collection: string;
  readonly dataIds: readonly string[];
  readonly perSecond: number;
  readonly timeoutMs?: number;
}): WriteLoad => {
  const writes: LoadWrite[] = [];
  const inFlight = new Set<Promise<void>>();
  let running = true;
  const send = async (write: LoadWrite): Promise<void> => {
    try {
      const response = await fetch(`${options.adminUrl}/admin/collections/${options.collection}/items/${write.dataId}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { n: write.n } }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
      await response.text();
      write.status = response.status;
    } catch (error) {
      write.error = error instanceof Error ? error.message : String(error);
    } finally {
      write.answeredAt = Date.now();
    }
  };
  const loop = (async () => {
    for (let n = 1; running; n++) {
      const write: LoadWrite = { n, dataId: options.dataIds[(n - 1) % options.dataIds.length]!, sentAt: Date.now(), answeredAt: null, status: null, error: null };
      writes.push(write);
      const sending = send(write).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
      await sleep(1_000 / options.perSecond);
    }
  })();
  return {
    writes,
    async stop() {
      running = false;
      await loop;
      await Promise.all([...inFlight]);
    },
  };
};
