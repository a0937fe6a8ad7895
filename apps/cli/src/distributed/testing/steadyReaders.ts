import http from 'node:http';
import { probe, type ProbeResult } from './httpProbe.js';

/** A request a reader repeats: which node, which path, with which headers. */
export interface ReadTarget {
  readonly name: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
}

/** One answer of a steady reader. */
export interface ReadRecord extends ProbeResult {
  readonly target: string;
}

export interface SteadyReaders {
  readonly records: ReadRecord[];
  /** Records of `target` (all when omitted) sent at or after `since` (performance.now()). */
  since(since: number, target?: string): ReadRecord[];
  stop(): Promise<void>;
}

/**
 * `concurrency` loops per target, each sending its request again as soon as the last answered
 * (after `pauseMs`), over keep-alive connections, recording every answer: a steady read load whose
 * statuses a fault scenario judges afterwards.
 */
export const startSteadyReaders = (targets: readonly ReadTarget[], options: { concurrency: number; pauseMs: number; timeoutMs: number }): SteadyReaders => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const records: ReadRecord[] = [];
  let running = true;
  const loop = async (target: ReadTarget): Promise<void> => {
    while (running) {
      const result = await probe(target.url, { headers: target.headers, timeoutMs: options.timeoutMs, agent });
      records.push({ ...result, target: target.name });
      await new Promise((resolve) => setTimeout(resolve, result.status === null ? Math.max(50, options.pauseMs) : options.pauseMs));
    }
  };
  const loops = targets.flatMap((target) => Array.from({ length: options.concurrency }, () => loop(target)));
  return {
    records,
    since: (since, target) => records.filter((record) => record.sentAt >= since && (target === undefined || record.target === target)),
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
};

/** How many records have each status (`error` for no answer). */
export const statusCounts = (records: readonly ProbeResult[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const record of records) {
    const name = record.status === null ? `error:${record.error}` : String(record.status);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
};
