import type { ItemRecord, PageResult } from '@pubstream/read-model';
import { httpDate } from '../http/conditionalRequest.js';
import { weakEtag } from '../http/etag.js';
import type { BatchRequest } from './batchRequest.js';
import { pickFields } from './batchRequest.js';
import type { CollectionQuery } from './collectionQuery.js';
import type { Reply } from './keyedRoute.js';
import type { BatchAnswer, ItemBody, PageBody } from './publicSchemas.js';

// Bodies are typed by the schemas of the OpenAPI document (publicSchemas.ts): a field added here
// and not there does not compile. They are not parsed at run time: this is the hot path.

/**
 * GET /public/data/:dataId: the item without its version, tagged by it; last modified at its
 * `updatedAt` (the time of the event that last changed it, the same on every node).
 */
export const itemReply = (item: ItemRecord): Reply => {
  const { id, dataId, collectionId, data, createdAt, updatedAt } = item;
  const body: ItemBody = { id, dataId, collectionId, data, createdAt, updatedAt };
  return { body: JSON.stringify(body), etag: weakEtag(['item', dataId, item.version]), lastModified: httpDate(updatedAt) };
};

/** The item replies cache key: the internal id changes when a deleted dataId is created again, whose version may repeat. */
export const itemStamp = (item: ItemRecord): string => `${item.id}@${item.version}`;

/**
 * POST /public/batch: the items found in request order (with only the asked fields), and the ids
 * not found; tagged by the request (ids in order, fields) and each found item's id and version.
 * No Last-Modified: an item leaving the answer (deleted) leaves no time behind to compare with.
 */
export const batchReply = (request: BatchRequest, items: readonly (ItemRecord | null | undefined)[]): Reply => {
  const data: BatchAnswer['data'] = [];
  const notFound: string[] = [];
  request.dataIds.forEach((dataId, index) => {
    const item = items[index];
    if (item) data.push({ dataId, data: pickFields(item.data, request.fields) });
    else notFound.push(dataId);
  });
  const tag = ['batch', request.fields === null ? '*' : request.fields.join('\u0001'), ...request.dataIds.map((dataId, index) => batchStamp(dataId, items[index]))];
  const body: BatchAnswer = { data, found: data.length, notFound };
  return { body: JSON.stringify(body), etag: weakEtag(tag), lastModified: null };
};

/** One id of a batch in its ETag: found (internal id and version: a re-created item may repeat a version) or not. */
const batchStamp = (dataId: string, item: ItemRecord | null | undefined): string => (item ? `${dataId}@${itemStamp(item)}` : `${dataId}!`);

/** The page replies cache: one entry per page asked for, valid while its items' versions and the total are unchanged. */
export const pageCacheEntry = (slug: string, query: CollectionQuery, result: PageResult): { name: string; stamp: string } => ({
  name: `${slug}\u0000${query.sort}\u0000${query.order}\u0000${query.page}\u0000${query.limit}`,
  stamp: `${result.total}\u0000${result.items.map(itemStamp).join('\u0000')}`,
});

/** GET /public/collections/:slug/data: one page, tagged by the query, the total and the items' versions. */
export const pageReply = (slug: string, query: CollectionQuery, result: PageResult): Reply => {
  const body: PageBody = {
    data: result.items.map((item) => ({ dataId: item.dataId, data: item.data })),
    total: result.total,
    page: query.page,
    limit: query.limit,
    totalPages: Math.ceil(result.total / query.limit),
  };
  const tagged = result.items.map((item) => `${item.dataId}@${item.version}`);
  // No Last-Modified: an item that leaves the page (deleted, or sorted onto another page) changes it
  // without leaving a time that a date comparison could see; the ETag covers it.
  return { body: JSON.stringify(body), etag: weakEtag(['page', slug, query.sort, query.order, query.page, query.limit, result.total, ...tagged]), lastModified: null };
};
