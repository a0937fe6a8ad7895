import type Router from '@koa/router';
import { adminContract } from '../contract/adminContract.js';
import { UnsupportedMediaTypeError } from '@pubstream/domain';
import { decodedBody, mountRoute, parseContentEncoding } from '@pubstream/http';
import type { AdminService } from '../adminService.js';
import { IMPORT_MAX_EXPANSION, importItems } from '../importItems.js';
import type { ImportResponder } from '../importResponder.js';
import type { WriteResponder } from '../writeResponder.js';
import { param, putItemBody, readBodies } from './requestBodies.js';
import { created, noContent } from './writeAnswers.js';

/** The content types an NDJSON import is accepted under. */
const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines', 'text/plain'];

export interface ItemRouteDeps {
  readonly service: Pick<AdminService, 'getItem' | 'putItem' | 'deleteItem' | 'activeCollection' | 'writeItems'>;
  readonly respond: WriteResponder;
  readonly respondImport: ImportResponder;
  readonly newId: () => string;
}

/** `/admin/collections/{slug}/items/{dataId}` and the NDJSON import (docs/admin-api.md, Items). */
export const itemRoutes = (router: Router, deps: ItemRouteDeps): void => {
  const { service, respond } = deps;
  mountRoute(router, adminContract('importItems'), async (ctx) => {
    if (!NDJSON_TYPES.includes(ctx.request.type)) throw new UnsupportedMediaTypeError('Content-Type must be application/x-ndjson (one JSON object per line)');
    const slug = param(ctx, 'slug');
    // Compressed imports go through the shared body layer; each line is bounded, not the total.
    const body = decodedBody(ctx.req, { coding: parseContentEncoding(ctx.get('Content-Encoding')), maxBytes: Infinity, maxExpansion: IMPORT_MAX_EXPANSION });
    await deps.respondImport(ctx, body, async (input, idempotencyKey) => {
      await service.activeCollection(slug);
      return importItems(input, slug, { writeItems: service.writeItems, newId: deps.newId, idempotencyKey });
    });
  });
  mountRoute(router, adminContract('getItem'), async (ctx) => {
    ctx.body = await service.getItem(param(ctx, 'slug'), param(ctx, 'dataId'));
  });
  mountRoute(router, adminContract('putItem'), async (ctx) => {
    const { raw, body } = await readBodies(ctx, putItemBody);
    await respond(ctx, raw, (options) => service.putItem(param(ctx, 'slug'), param(ctx, 'dataId'), body.data, options), created);
  });
  mountRoute(router, adminContract('deleteItem'), async (ctx) => {
    await respond(ctx, {}, (options) => service.deleteItem(param(ctx, 'slug'), param(ctx, 'dataId'), options), noContent);
  });
};
