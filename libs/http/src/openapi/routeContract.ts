import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One answer of a route: its status is the key it is listed under in `RouteContract.responses`. */
export interface ResponseContract {
  readonly description: string;
  /** The body's schema (its output side); omitted: no body (204, 304) or one described by `text`. */
  readonly body?: z.ZodType;
  /** Media type of the body (default `application/json`). */
  readonly contentType?: string;
  /** A non-JSON body (text/event-stream, Prometheus text, HTML): the JSON Schema of the string, with its description. */
  readonly text?: Readonly<Record<string, unknown>>;
  /** Names of the headers it carries, from the document's header catalogue. */
  readonly headers?: readonly string[];
  /** Vendor extensions on the media type (`x-sse-events`: the event payloads of a stream, by event name). */
  readonly events?: Readonly<Record<string, z.ZodType>>;
}

/**
 * What a route accepts and answers: the one description of it, from which both the router's
 * validation and the OpenAPI document are made (docs/decisions.md, "OpenAPI from the code").
 */
export interface RouteContract {
  readonly method: HttpMethod;
  /** The path as OpenAPI templates it: `/public/data/{dataId}` (the router's path: `toRouterPath`). */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** Names of the document's security schemes that admit the request; empty: no credentials. */
  readonly security: readonly string[];
  readonly pathParams?: z.ZodObject;
  readonly query?: z.ZodObject;
  /** Names of request headers it reads, from the document's header catalogue. */
  readonly requestHeaders?: readonly string[];
  readonly body?: { readonly schema: z.ZodType; readonly contentTypes?: readonly string[]; readonly description?: string };
  readonly responses: Readonly<Record<string, ResponseContract>>;
}

/** A header of the catalogue: where it goes is said by the routes that name it. */
export interface HeaderContract {
  readonly description: string;
  readonly schema: z.ZodType;
}

/** `/public/data/{dataId}` → `/public/data/:dataId` (@koa/router's syntax; a literal `:`, as in `items:import`, escaped). */
export const toRouterPath = (path: string): string => path.replace(/:/g, '\\:').replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
