import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// Judges real answers against a served OpenAPI document (the contract test and the fuzz target):
// an answer is documented when its operation lists its status (or the status is one of the
// document's `x-edge-responses`, answers any request may get before it reaches a route), and its
// body, content type and documented headers match what the document says.

type Json = Record<string, unknown>;

export interface ObservedAnswer {
  readonly method: string;
  /** The request target as sent (path and query), already normalised as the server does it. */
  readonly path: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export interface Verdict {
  /** `GET /public/data/{dataId}`, or `edge` when no documented path matched. */
  readonly operation: string;
  readonly status: string;
  /** What is not as documented; null when all is. */
  readonly problem: string | null;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const pointer = (...parts: string[]): string => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
/**
 * A documented path as the routers match it: case-insensitively on the public port, and with an
 * optional trailing slash (@koa/router's default, `strict: false`; the admin normalizes paths).
 */
const templateRegex = (template: string, caseSensitive: boolean): RegExp =>
  new RegExp(`^${template.split(/(\{[^}]+\})/).map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}/?$`, caseSensitive ? '' : 'i');

/** `caseSensitive`: whether the server's router matches paths case-sensitively (the admin's does, the public one does not). */
export const createOpenApiValidator = (document: Json, options: { caseSensitive: boolean }) => {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema(document, 'spec');
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (path: string): ValidateFunction => {
    let validate = compiled.get(path);
    if (!validate) {
      validate = ajv.compile({ $ref: `spec#/${path}` });
      compiled.set(path, validate);
    }
    return validate;
  };
  const paths = document.paths as Record<string, Record<string, Json>>;
  // Literal paths before templated ones (`/docs/redoc.standalone.js` is not `/docs/{x}`), longer first.
  const templates = Object.keys(paths)
    .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')) || b.length - a.length)
    .map((template) => ({ template, regex: templateRegex(template, options.caseSensitive) }));
  const edge = (document['x-edge-responses'] ?? {}) as Record<string, Json>;

  const checkBody = (answer: ObservedAnswer, at: string, response: Json): string | null => {
    const content = response.content as Record<string, Json> | undefined;
    if (answer.method === 'HEAD' || content === undefined) return answer.body === '' || answer.method === 'HEAD' ? null : 'a body where none is documented';
    const type = (answer.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
    if (content[type] === undefined) return `content type ${JSON.stringify(type)}, documented: ${Object.keys(content).join(', ')}`;
    if (type !== 'application/json' || content[type]?.schema === undefined) return null;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return 'a body that is not JSON';
    }
    const validate = validatorAt(pointer(...at.split('\u0000'), 'content', type, 'schema'));
    return validate(body) ? null : `body ${JSON.stringify(body).slice(0, 200)}: ${ajv.errorsText(validate.errors)}`;
  };

  const checkHeaders = (answer: ObservedAnswer, at: string, response: Json): string | null => {
    for (const [name, entry] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const value = answer.headers[name.toLowerCase()];
      const ref = typeof entry.$ref === 'string' ? entry.$ref.slice(2) : null;
      const header = ref === null ? entry : (((document.components as Json).headers as Record<string, Json>)[name] ?? entry);
      if (value === undefined) {
        if (name === 'X-Request-Id') return 'no X-Request-Id';
        continue;
      }
      const schema = header.schema as Json;
      const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
      const validate = validatorAt(ref === null ? pointer(...at.split('\u0000'), 'headers', name, 'schema') : `${ref}/schema`);
      if (!validate(typed)) return `header ${name}: ${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`;
    }
    return null;
  };

  const checkResponse = (answer: ObservedAnswer, at: string[], response: Json): string | null => {
    const key = at.join('\u0000');
    return checkBody(answer, key, response) ?? checkHeaders(answer, key, response);
  };

  return {
    document,
    /** What is wrong with the payload of a Server-Sent Event of `path` (its `x-sse-events`), or null. */
    checkEvent(path: string, event: string, data: unknown): string | null {
      const events = (paths[path]?.get?.responses as Record<string, Json> | undefined)?.['200']?.content as Record<string, Json> | undefined;
      if ((events?.['text/event-stream']?.['x-sse-events'] as Json | undefined)?.[event] === undefined) return `event ${event} is not documented`;
      const validate = validatorAt(pointer('paths', path, 'get', 'responses', '200', 'content', 'text/event-stream', 'x-sse-events', event));
      return validate(data) ? null : `event ${event} ${JSON.stringify(data).slice(0, 200)}: ${ajv.errorsText(validate.errors)}`;
    },
    check(answer: ObservedAnswer): Verdict {
      const status = String(answer.status);
      const path = answer.path.split('?')[0] ?? '';
      // Methods are case-sensitive; an answer without X-Request-Id came from Node's parser, before any route.
      const routed = /^[A-Z]+$/.test(answer.method) && answer.headers['x-request-id'] !== undefined;
      const method = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase();
      const match = routed ? templates.find(({ regex }) => regex.test(path)) : undefined;
      const operation = match === undefined ? undefined : paths[match.template]?.[method];
      if (match !== undefined && operation !== undefined) {
        const response = (operation.responses as Record<string, Json>)[status];
        const name = `${method.toUpperCase()} ${match.template}`;
        if (response !== undefined) return { operation: name, status, problem: checkResponse(answer, ['paths', match.template, method, 'responses', status], response) };
        const generic = edge[status];
        // A route's own 404 or 405 must be documented on it; the edge's are the router's own words.
        const routerWords = status === '404' ? /^No route for / : status === '405' ? /^Method / : /.*/s;
        if (generic !== undefined && routerWords.test(String((JSON.parse(answer.body || '{}') as Json).message ?? ''))) {
          return { operation: name, status, problem: checkResponse(answer, ['x-edge-responses', status], generic) };
        }
        return { operation: name, status, problem: `status ${status} is not documented for ${name}` };
      }
      if (answer.method === 'OPTIONS' && (status === '204' || status === '200')) return { operation: 'edge', status, problem: null };
      const generic = edge[status];
      if (generic === undefined) return { operation: 'edge', status, problem: `status ${status} for ${answer.method} ${path.slice(0, 100)}, which no route documents` };
      return { operation: 'edge', status, problem: answer.method === 'HEAD' ? null : checkResponse(answer, ['x-edge-responses', status], generic) };
    },
  };
};

export type OpenApiValidator = ReturnType<typeof createOpenApiValidator>;
