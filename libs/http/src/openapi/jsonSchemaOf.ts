import { z } from 'zod';

type JsonObject = Record<string, unknown>;

/**
 * Converts zod schemas to the JSON Schema dialect of OpenAPI 3.1 (2020-12) and gathers the named
 * ones (`.meta({ id })`) as `components.schemas`, so that each appears once in the document.
 * Requests are described by what they accept (`input`), responses by what they produce (`output`:
 * defaults filled in, no property beyond the listed ones). A named schema that reads differently
 * on the two sides keeps its name for the output and gets `<name>Input` for the input.
 */
export interface SchemaCollector {
  of(schema: z.ZodType, io: 'input' | 'output'): JsonObject;
  readonly components: Readonly<Record<string, JsonObject>>;
}

const rewriteRefs = (value: unknown, rename: (name: string) => string): unknown => {
  if (Array.isArray(value)) return value.map((entry) => rewriteRefs(entry, rename));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) =>
      key === '$ref' && typeof entry === 'string' && entry.startsWith('#/$defs/')
        ? [key, `#/components/schemas/${rename(entry.slice('#/$defs/'.length))}`]
        : [key, rewriteRefs(entry, rename)],
    ),
  );
};

/**
 * Drops what only adds noise to a reader: the regular expression zod writes beside
 * `format: date-time`, and the bounds of a safe integer zod puts on every `int()`.
 */
const quieter = (context: { jsonSchema: JsonObject }): void => {
  const schema = context.jsonSchema;
  if (schema.format === 'date-time') delete schema.pattern;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
};

export const createSchemaCollector = (): SchemaCollector => {
  const components: Record<string, JsonObject> = {};
  const place = (name: string, definition: JsonObject, io: 'input' | 'output'): string => {
    const text = JSON.stringify(definition);
    const existing = components[name];
    if (existing === undefined || JSON.stringify(existing) === text) {
      components[name] = definition;
      return name;
    }
    const other = io === 'input' ? `${name}Input` : `${name}Output`;
    const second = components[other];
    if (second !== undefined && JSON.stringify(second) !== text) throw new Error(`Schema ${name} reads three ways; give its variants their own ids`);
    components[other] = definition;
    return other;
  };
  return {
    components,
    of(schema, io) {
      const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', override: quieter }) as JsonObject;
      const { $schema: _dialect, $defs, ...rest } = converted;
      const names = new Map<string, string>();
      // Definitions first (they may refer to each other; names settle before any ref is rewritten).
      const definitions = Object.entries(($defs ?? {}) as Record<string, JsonObject>);
      for (const [name] of definitions) names.set(name, name);
      for (const [name, definition] of definitions) names.set(name, place(name, rewriteRefs(definition, (ref) => names.get(ref) ?? ref) as JsonObject, io));
      return rewriteRefs(rest, (ref) => names.get(ref) ?? ref) as JsonObject;
    },
  };
};
