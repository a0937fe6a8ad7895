import type { z } from 'zod';
import { createSchemaCollector, type SchemaCollector } from './jsonSchemaOf.js';
import type { HeaderContract, ResponseContract, RouteContract } from './routeContract.js';

type JsonObject = Record<string, unknown>;

export interface OpenApiDocumentOptions {
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly tags?: readonly { readonly name: string; readonly description: string }[];
  readonly securitySchemes: Readonly<Record<string, JsonObject>>;
  /** Every header a route names, request or response. */
  readonly headers: Readonly<Record<string, HeaderContract>>;
  readonly routes: readonly RouteContract[];
  /**
   * Answers any request may get before it reaches a route (unknown path, wrong method, malformed
   * HTTP, oversized headers…), by status: documented once, as `x-edge-responses`.
   */
  readonly edgeResponses: Readonly<Record<string, string>>;
  /** The schema of every error body. */
  readonly errorBody: z.ZodType;
}

const headerOf = (options: OpenApiDocumentOptions, schemas: SchemaCollector, name: string): JsonObject => {
  const header = options.headers[name];
  if (header === undefined) throw new Error(`Header ${name} is not in the catalogue`);
  return { description: header.description, schema: schemas.of(header.schema, 'output') };
};

/** Response headers are defined once, in `components.headers`, and referred to. */
const responseHeaderRef = (options: OpenApiDocumentOptions, schemas: SchemaCollector, used: Record<string, JsonObject>, name: string): JsonObject => {
  used[name] ??= headerOf(options, schemas, name);
  return { $ref: `#/components/headers/${name}` };
};

const responseOf = (options: OpenApiDocumentOptions, schemas: SchemaCollector, used: Record<string, JsonObject>, response: ResponseContract): JsonObject => {
  const headers = Object.fromEntries((response.headers ?? []).map((name) => [name, responseHeaderRef(options, schemas, used, name)]));
  const base: JsonObject = { description: response.description, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  const type = response.contentType ?? 'application/json';
  if (response.body !== undefined) return { ...base, content: { [type]: { schema: schemas.of(response.body, 'output') } } };
  if (response.text === undefined) return base;
  const events = response.events === undefined ? {} : { 'x-sse-events': Object.fromEntries(Object.entries(response.events).map(([name, schema]) => [name, schemas.of(schema, 'output')])) };
  return { ...base, content: { [type]: { schema: response.text, ...events } } };
};

const parametersOf = (options: OpenApiDocumentOptions, schemas: SchemaCollector, route: RouteContract): JsonObject[] => {
  const fromObject = (where: 'path' | 'query', object: z.ZodObject | undefined): JsonObject[] =>
    Object.entries(object?.shape ?? {}).map(([name, schema]) => {
      // Parameters are described by their meaning once parsed (`page` an integer ≥ 1), not as the
      // string on the wire; unless that is not representable (a Date), then as they are sent.
      const parsed = schemas.of(schema as z.ZodType, 'output');
      const { description, ...json } = Object.keys(parsed).length > 1 || parsed.type !== undefined ? parsed : schemas.of(schema as z.ZodType, 'input');
      const required = where === 'path' || !(schema as z.ZodType).safeParse(undefined).success;
      return { name, in: where, required, ...(typeof description === 'string' ? { description } : {}), schema: json };
    });
  const headers = (route.requestHeaders ?? []).map((name) => ({ name, in: 'header', required: false, ...headerOf(options, schemas, name) }));
  return [...fromObject('path', route.pathParams), ...fromObject('query', route.query), ...headers];
};

const operationOf = (options: OpenApiDocumentOptions, schemas: SchemaCollector, used: Record<string, JsonObject>, route: RouteContract): JsonObject => {
  const parameters = parametersOf(options, schemas, route);
  const body = route.body;
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: [...route.tags],
    security: route.security.map((scheme) => ({ [scheme]: [] })),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            ...(body.description === undefined ? {} : { description: body.description }),
            content: Object.fromEntries((body.contentTypes ?? ['application/json']).map((type) => [type, { schema: schemas.of(body.schema, 'input') }])),
          },
        }),
    responses: Object.fromEntries(Object.entries(route.responses).map(([status, response]) => [status, responseOf(options, schemas, used, response)])),
  };
};

/** The OpenAPI 3.1 document of an API from its route contracts (docs/decisions.md, "OpenAPI from the code"). */
export const buildOpenApiDocument = (options: OpenApiDocumentOptions): JsonObject => {
  const schemas = createSchemaCollector();
  const headers: Record<string, JsonObject> = {};
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of options.routes) {
    const path = (paths[route.path] ??= {});
    if (path[route.method] !== undefined) throw new Error(`Two contracts for ${route.method.toUpperCase()} ${route.path}`);
    path[route.method] = operationOf(options, schemas, headers, route);
  }
  const errorSchema = schemas.of(options.errorBody, 'output');
  const edge = Object.fromEntries(
    Object.entries(options.edgeResponses).map(([status, description]) => [status, { description, content: { 'application/json': { schema: errorSchema } } }]),
  );
  return {
    openapi: '3.1.0',
    info: options.info,
    ...(options.tags === undefined ? {} : { tags: options.tags }),
    paths,
    components: { securitySchemes: options.securitySchemes, schemas: schemas.components, headers },
    'x-edge-responses': edge,
  };
};
