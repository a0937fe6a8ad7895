import type { EventType, PubstreamEvent } from '@pubstream/domain';
import type { KeyStore, ReadModel, ReadModelOp } from '@pubstream/read-model';

/** A validated, upcast event with the facts projections need from its recording. */
export interface ProjectedEvent<E extends PubstreamEvent = PubstreamEvent> {
  readonly event: E;
  /** Revision within its stream: the `version` of every record it produces. */
  readonly revision: number;
  /** Global position in the log. */
  readonly position: number;
  /** ISO 8601 UTC business time: metadata.occurredAt, else when the store recorded it. */
  readonly at: string;
}

/**
 * The records projections load before folding a batch: reads of the same adapter (and the same
 * generation) the projector writes to.
 */
export interface ProjectionReads {
  readonly readModel: Pick<ReadModel, 'getItems' | 'getCollection'>;
  readonly keys: Pick<KeyStore, 'getKey'>;
}

/**
 * One read model as pure functions plus a thin batched loader (docs/projections.md, "How a batch is projected"):
 * `evolve(doc | null, event) => doc | null` (null = the record does not exist), and `toOp` maps
 * the outcome to a read-model write carrying the event's revision as `version`.
 */
export interface ProjectionSpec<Doc> {
  readonly name: string;
  readonly handles: readonly EventType[];
  /** Which record an event changes (dataId, slug, keyId, …). */
  idOf(event: PubstreamEvent): string;
  /**
   * Events whose `evolve` ignores the current record (creations). A record whose first event in a
   * batch is one of these is not loaded: imports and rebuilds skip the read entirely.
   */
  readonly creates?: readonly EventType[];
  /** Current records for these ids, in as few read-model calls as the port allows. */
  load(reads: ProjectionReads, ids: readonly string[]): Promise<ReadonlyMap<string, Doc | null>>;
  evolve(doc: Doc | null, event: ProjectedEvent): Doc | null;
  /** The write for this step, or null when nothing is to be written. */
  toOp(next: Doc | null, event: ProjectedEvent): ReadModelOp | null;
}

/** A projected write and the position of the event that caused it. */
export interface PositionedOp {
  readonly op: ReadModelOp;
  readonly position: number;
}

/**
 * A registered projection: its spec with the document type hidden behind closures, so one
 * registry can list projections of different record types.
 */
export interface Projection {
  readonly name: string;
  readonly handles: readonly EventType[];
  /** The record ids this projection's events in `events` touch (deduplicated). */
  touched(events: readonly ProjectedEvent[]): string[];
  /** Loads the touched records, then folds the events over them in order. */
  project(reads: ProjectionReads, events: readonly ProjectedEvent[]): Promise<PositionedOp[]>;
}

/**
 * Folds events over already loaded records, in memory and in order; pure. Every event that
 * yields a write produces one op (its version = the event's revision), so every committed
 * version can be published. `docs` is not modified.
 */
export const foldProjection = <Doc>(
  spec: ProjectionSpec<Doc>,
  loaded: ReadonlyMap<string, Doc | null>,
  events: readonly ProjectedEvent[],
): PositionedOp[] => {
  const docs = new Map(loaded);
  const ops: PositionedOp[] = [];
  for (const event of events) {
    if (!spec.handles.includes(event.event.type)) continue;
    const id = spec.idOf(event.event);
    const next = spec.evolve(docs.get(id) ?? null, event);
    docs.set(id, next);
    const op = spec.toOp(next, event);
    if (op) ops.push({ op, position: event.position });
  }
  return ops;
};

/** Registers a projection spec (see docs/projections.md). */
export const defineProjection = <Doc>(spec: ProjectionSpec<Doc>): Projection => {
  const touched = (events: readonly ProjectedEvent[]): string[] => [
    ...new Set(events.filter((e) => spec.handles.includes(e.event.type)).map((e) => spec.idOf(e.event))),
  ];
  return {
    name: spec.name,
    handles: spec.handles,
    touched,
    async project(reads, events) {
      const mine = events.filter((e) => spec.handles.includes(e.event.type));
      if (mine.length === 0) return [];
      const firstSeen = new Set<string>();
      const toLoad: string[] = [];
      for (const { event } of mine) {
        const id = spec.idOf(event);
        if (firstSeen.has(id)) continue;
        firstSeen.add(id);
        if (!spec.creates?.includes(event.type)) toLoad.push(id);
      }
      const loaded = toLoad.length > 0 ? await spec.load(reads, toLoad) : new Map<string, Doc | null>();
      return foldProjection(spec, loaded, mine);
    },
  };
};

/** Loads records one call per id, in parallel: for rarely written records (collections, keys). */
export const loadEach = async <Doc>(ids: readonly string[], get: (id: string) => Promise<Doc | null>): Promise<ReadonlyMap<string, Doc | null>> => {
  const docs = await Promise.all(ids.map(get));
  return new Map(ids.map((id, i) => [id, docs[i] ?? null]));
};
