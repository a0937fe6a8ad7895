import type Router from '@koa/router';
import { GoneError, isValidSlug, NotFoundError } from '@pubstream/domain';
import { echoInput, mountRoute } from '@pubstream/http';
import { EXPIRED, type ChangeHistory, type ReadModel } from '@pubstream/read-model';
import { backendCall } from '../http/backendCall.js';
import type { MinPositionGate } from '../positions/minPosition.js';
import type { ReplyEdge } from '../http/replyEdge.js';
import type { PublicAccess } from '../publicAccess.js';
import { parseChangesQuery } from './changesQuery.js';
import type { ChangesAnswer } from './publicSchemas.js';
import { keyedRoute, type Answer } from './keyedRoute.js';
import { publicContracts } from './publicContract.js';

export const POSITION_EXPIRED_MESSAGE = 'Position expired: re-read the collection';

export interface ChangesRouteDeps {
  readonly readModel: Pick<ReadModel, 'appliedPosition'>;
  readonly history: Pick<ChangeHistory, 'collectionChanges'>;
  readonly access: PublicAccess;
  readonly edge: ReplyEdge;
  readonly minPosition: MinPositionGate;
}

/**
 * GET /public/collections/:slug/changes?since=P&limit=N (docs/public-api.md, "Changes feed"): the
 * collection's item changes after P in position order, with the same key, domain, rate-limit and
 * usage rules as every read. `nextSince` is the last change returned while more follow; else the
 * largest of since, the collection's lastChange and the applied position C read BEFORE the
 * changes (every change at or below C is in the history by then), so a client polling a quiet
 * collection moves on and never falls behind the retention. 410 when since is older than the history.
 */
export const changesRoute = (router: Router, deps: ChangesRouteDeps): void => {
  mountRoute(
    router,
    publicContracts.changes,
    keyedRoute(deps.access, deps.edge, async (ctx): Promise<Answer> => {
      const slug = ctx.params.slug ?? '';
      const query = parseChangesQuery(ctx.query);
      const notFound = () => new NotFoundError(`Collection not found: ${echoInput(slug)}`);
      if (!isValidSlug(slug)) throw notFound();
      await deps.minPosition.awaitQuery(ctx.query);
      // A `since` ahead of this node (a cursor from a faster node) waits like minPosition: answering
      // at once with nextSince = since would make the client skip every change up to it.
      if (query.since > 0) await deps.minPosition.awaitPosition(query.since);
      // Null only when a caught-up read model said so (else 503): the miss is confirmed.
      if ((await deps.access.getCollection(slug)) === null) throw notFound();
      const applied = await backendCall(deps.readModel.appliedPosition());
      const result = await backendCall(deps.history.collectionChanges(slug, query.since, query.limit));
      if (result === EXPIRED) throw new GoneError(POSITION_EXPIRED_MESSAGE);
      const last = result.changes.at(-1)?.position ?? query.since;
      const nextSince = result.hasMore ? last : Math.max(query.since, last, result.lastChange, applied);
      const changes = result.changes.map(({ position, dataId, action, version, data }) => ({ position, dataId, action, version, data }));
      const body: ChangesAnswer = { changes, nextSince, hasMore: result.hasMore };
      return { reply: { body: JSON.stringify(body), etag: null, lastModified: null }, position: nextSince };
    }),
  );
};
