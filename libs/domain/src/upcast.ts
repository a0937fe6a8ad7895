import { ValidationError } from './errors.js';
import { EVENT_TYPES, pubstreamEventSchema, type EventType, type PubstreamEvent } from './events.js';

/**
 * Upcasting: events are immutable, so when the schema of an event's `data` changes, old events
 * are raised to today's schema when they are read (never rewritten in the store). Each upcaster
 * lifts `data` from version N to N+1; `metadata.schemaVersion` says which version was written
 * (absent means 1). Projections and deciders only ever see the current schema.
 */

/** Lifts an event's `data` by exactly one schema version. Pure. */
export type Upcaster = (data: unknown) => unknown;

/** event type → version it reads → upcaster to version + 1. */
export type UpcasterRegistry = Readonly<Record<string, Readonly<Record<number, Upcaster>>>>;

/** What the event store hands out; only these fields matter to upcasting. */
export interface StoredEventShape {
  readonly type: string;
  readonly data: unknown;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `"a.com, b.com,,"` → `["a.com", "b.com"]`. */
export const splitDomainList = (value: string): string[] =>
  value
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d.length > 0);

/**
 * Schema version 1 of ApiKeyCreated / ApiKeyUpdated stored the domain whitelist as one
 * comma-separated string `domains: "a.com, *.b.com"`; version 2 stores `allowedDomains: string[]`.
 * Writers that predate schemaVersion stamping write version-2 data without the field, so this
 * upcaster recognises version-1 data by its `domains` string and passes anything else through.
 */
const apiKeyDomainsV1toV2: Upcaster = (data) => {
  if (!isRecord(data) || typeof data.domains !== 'string' || 'allowedDomains' in data) return data;
  const { domains, ...rest } = data;
  return { ...rest, allowedDomains: splitDomainList(domains) };
};

/** The upcasters of this code base; add one entry per schema change (docs/projections.md). */
const UPCASTERS: UpcasterRegistry = Object.freeze({
  ApiKeyCreated: { 1: apiKeyDomainsV1toV2 },
  ApiKeyUpdated: { 1: apiKeyDomainsV1toV2 },
});

/** The schema version new events of `type` are written with: one past the last upcaster. */
export const currentSchemaVersion = (type: string, registry: UpcasterRegistry = UPCASTERS): number => {
  const versions = Object.keys(registry[type] ?? {}).map(Number);
  return versions.length === 0 ? 1 : Math.max(...versions) + 1;
};

const schemaVersionOf = (metadata: Readonly<Record<string, unknown>> | undefined): number => {
  const v = metadata?.schemaVersion;
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : 1;
};

/** Raises `data` from the version in its metadata to the current one. Unknown types pass unchanged. */
export const upcastData = (recorded: StoredEventShape, registry: UpcasterRegistry = UPCASTERS): unknown => {
  const chain = registry[recorded.type];
  if (!chain) return recorded.data;
  const target = currentSchemaVersion(recorded.type, registry);
  let data = recorded.data;
  for (let version = schemaVersionOf(recorded.metadata); version < target; version++) {
    const step = chain[version];
    if (!step) throw new ValidationError(`No upcaster for ${recorded.type} schema version ${version}`);
    data = step(data);
  }
  return data;
};

const knownTypes: ReadonlySet<string> = new Set<EventType>(EVENT_TYPES);

/** True when this code base knows the event type (projections skip the others). */
const isKnownEventType = (type: string): type is EventType => knownTypes.has(type);

/**
 * A stored event as a validated domain event of today's schema: upcast by
 * `metadata.schemaVersion`, then checked with the event's zod schema. Returns null for event
 * types this code base does not know (newer writers, foreign streams), so readers skip them;
 * throws ValidationError when a known event does not match its schema.
 */
export const toDomainEvent = (recorded: StoredEventShape, registry: UpcasterRegistry = UPCASTERS): PubstreamEvent | null => {
  if (!isKnownEventType(recorded.type)) return null;
  const parsed = pubstreamEventSchema.safeParse({ type: recorded.type, data: upcastData(recorded, registry) });
  if (!parsed.success) {
    throw new ValidationError(`Invalid ${recorded.type} event: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
};
