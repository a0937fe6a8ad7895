// One subscriber of the resume chaos test: it keeps ONE stream open on a random node, remembers
// the last id it received (as an EventSource does) and, whenever its stream ends — cut by the test
// at a random moment, or ended by the server — resumes on a random node with Last-Event-ID.
import { openSse, type ReceivedEvent, type SseTestClient } from '../../../apps/api/src/subscribe/testing/sseTestClient.js';

export interface SeenVersion {
  readonly version: number;
  readonly action: 'update' | 'delete';
  /** `data.n` of an update. */
  readonly n: number | undefined;
}

export interface ChaosSubscriberOptions {
  readonly nodes: readonly string[];
  readonly apiKey: string;
  readonly origin: string;
  readonly dataIds: readonly string[];
  readonly slug: string;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;

export class ChaosSubscriber {
  /** Every version of each watched item, in the order received (the first stream's snapshot included). */
  readonly seen = new Map<string, SeenVersion[]>();
  /** The last page 1 of the watched collection. */
  page: unknown = undefined;
  lastId: string | undefined;
  connects = 0;
  resets = 0;
  refusals = 0;
  private stream: SseTestClient | null = null;
  private running = true;
  private loop: Promise<void> | null = null;

  constructor(readonly options: ChaosSubscriberOptions) {}

  /** Connects and keeps reconnecting until `stop`; resolves once the first stream is ready. */
  async start(): Promise<void> {
    let first!: () => void;
    const ready = new Promise<void>((resolve) => (first = resolve));
    this.loop = this.run(first);
    await ready;
  }

  /** Cuts the current stream (the subscriber resumes at once on a random node). */
  cut(): void {
    this.stream?.close();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stream?.close();
    await this.loop;
  }

  private async run(onFirstReady: () => void): Promise<void> {
    while (this.running) {
      const { nodes, apiKey, dataIds, slug, origin } = this.options;
      const url = `${pick(nodes)}/subscribe?${new URLSearchParams({ apiKey, dataIds: dataIds.join(','), collections: slug }).toString()}`;
      // Without an id yet (a drop mid-snapshot), the next stream is a new snapshot: forget the partial one.
      if (this.lastId === undefined) this.seen.clear();
      const headers: Record<string, string> = { Origin: origin, ...(this.lastId === undefined ? {} : { 'Last-Event-ID': this.lastId }) };
      this.connects++;
      let stream: SseTestClient;
      try {
        stream = await openSse(url, headers, 60_000, (event, id) => this.onEvent(event, id, onFirstReady));
      } catch {
        await pause(50);
        continue;
      }
      if (stream.status !== 200) {
        // 503: the node has not reached our position yet (or is busy): try again, elsewhere.
        this.refusals++;
        await stream.body();
        await pause(50);
        continue;
      }
      this.stream = stream;
      await stream.ended;
      this.stream = null;
      await pause(Math.random() * 30);
    }
  }

  private onEvent(event: ReceivedEvent, id: string | undefined, onFirstReady: () => void): void {
    if (id !== undefined) this.lastId = id;
    const data = event.data;
    if (event.event === 'ready') onFirstReady();
    else if (event.event === 'reset') this.resets++;
    else if ((event.event === 'update' || event.event === 'delete') && typeof data?.dataId === 'string') {
      const list = this.seen.get(data.dataId) ?? [];
      list.push({ version: data.version, action: event.event, n: event.event === 'update' ? data.data?.n : undefined });
      this.seen.set(data.dataId, list);
    } else if (event.event === 'update' && data?.collectionSlug === this.options.slug) {
      this.page = data.data;
    }
  }
}
