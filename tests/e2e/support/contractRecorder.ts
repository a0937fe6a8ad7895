import type { OpenApiValidator } from './openApiValidator.js';

export type Api = 'public' | 'admin';

export interface Sent {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/**
 * Sends requests to both APIs and keeps, for the contract test, which documented answers they
 * produced and what in them the document does not say.
 */
export const createContractRecorder = (ports: Record<Api, number>, specs: Record<Api, OpenApiValidator>) => {
  const produced = new Set<string>();
  const problems: string[] = [];
  const record = (api: Api, method: string, path: string, response: Response, text: string): void => {
    const verdict = specs[api].check({ method, path, status: response.status, headers: Object.fromEntries(response.headers), body: text });
    produced.add(`${api} ${verdict.operation} ${verdict.status}`);
    if (verdict.problem !== null) problems.push(`${api} ${method} ${path} → ${response.status}: ${verdict.problem}`);
  };
  return {
    produced,
    problems,
    record,
    async send(api: Api, method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Sent> {
      const response = await fetch(`http://127.0.0.1:${ports[api]}${path}`, { method, headers: init.headers, body: init.body, redirect: 'manual' });
      const text = method === 'HEAD' ? '' : await response.text();
      record(api, method, path, response, text);
      return { status: response.status, headers: response.headers, text };
    },
    /** Every (api, operation, status) the documents list, but those `exempt` says cannot be produced here. */
    documented(documents: Record<Api, Record<string, unknown>>, exempt: (status: string, operation: string) => boolean): string[] {
      const all: string[] = [];
      for (const api of ['public', 'admin'] as const) {
        for (const [path, methods] of Object.entries(documents[api].paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
          for (const [method, operation] of Object.entries(methods)) {
            const name = `${method.toUpperCase()} ${path}`;
            for (const status of Object.keys(operation.responses)) if (!exempt(status, name)) all.push(`${api} ${name} ${status}`);
          }
        }
      }
      return all;
    },
  };
};

export type ContractRecorder = ReturnType<typeof createContractRecorder>;
