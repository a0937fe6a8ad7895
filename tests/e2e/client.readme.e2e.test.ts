// The README's Node.js example is code that runs: it is cut out of libs/client/README.md, pointed at a
// real all-in-one server, and executed as its own Node process.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AllInOne } from '../../apps/cli/src/allInOne.js';
import { adminRequest, createTestKey, startClientServer } from './support/clientServer.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-client-readme-'));
const scratch = join(repo, '.tmp', `client-readme-${process.pid}`);
let server: AllInOne;
let key: string;

const admin = (method: string, path: string, body?: unknown) => adminRequest(server, method, path, body);

/** The first ```ts block after a heading of the client README. */
function exampleAfter(heading: string): string {
  const readme = readFileSync(join(repo, 'libs', 'client', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error(`no ts example after ${heading}`);
  return match[1];
}

beforeAll(async () => {
  server = await startClientServer(dataDir);
  await admin('POST', '/admin/collections', { slug: 'articles', name: 'Articles', sortableFields: [] });
  for (let i = 1; i <= 60; i += 1) await admin('PUT', `/admin/collections/articles/items/article-${i}`, { data: { title: `Article ${i}` } });
  await admin('PUT', '/admin/collections/articles/items/a', { data: { title: 'A', body: 'dropped by fields' } });
  key = await createTestKey(server, 'readme');
  mkdirSync(scratch, { recursive: true });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

it('runs the Node.js example of the README against a real server', async () => {
  const code = exampleAfter('## Node.js').replace("'https://data.example.com'", JSON.stringify(server.publicUrl));
  const file = join(scratch, 'node-example.mts');
  writeFileSync(file, code);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
    cwd: repo,
    env: { ...process.env, PUBSTREAM_KEY: key },
    timeout: 60_000,
  });
  const lines = stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^article-42 Article 42 \d{4}-\d\d-\d\dT[\d:.]+Z$/);
  expect(lines.slice(1)).toEqual(['61 items, page 2/2', 'no such item']);
}, 90_000);

it('runs the offline-first example of the README twice: a full read, then only the changes since its position', async () => {
  const code = exampleAfter('## Offline-first').replace("'https://data.example.com'", JSON.stringify(server.publicUrl));
  const file = join(scratch, 'offline-example.mts');
  const copyFile = join(scratch, 'articles.local.json');
  writeFileSync(file, code);
  const run = async () =>
    (await promisify(execFile)(process.execPath, ['--import', 'tsx', file], { cwd: repo, env: { ...process.env, PUBSTREAM_KEY: key, LOCAL_COPY: copyFile }, timeout: 60_000 })).stdout.trim();
  const first = await run();
  expect(first).toMatch(/^61 articles at position \d+$/);
  const firstPosition = Number(/position (\d+)/.exec(first)?.[1]);

  // While the app is away: an update, a new article, a deletion.
  await admin('PUT', '/admin/collections/articles/items/article-1', { data: { title: 'Edited' } });
  await admin('PUT', '/admin/collections/articles/items/article-61', { data: { title: 'Article 61' } });
  await admin('DELETE', '/admin/collections/articles/items/article-2');
  const second = await run();
  expect(second).toMatch(/^61 articles at position \d+$/);
  expect(Number(/position (\d+)/.exec(second)?.[1])).toBeGreaterThan(firstPosition);

  // The local copy equals a fresh read of the collection.
  const saved = JSON.parse(readFileSync(copyFile, 'utf8')) as { items: Record<string, unknown> };
  const fresh = (await (await fetch(`${server.publicUrl}/public/collections/articles/data?limit=100&sort=dataId&order=asc`, { headers: { 'X-API-Key': key } })).json()) as {
    data: { dataId: string; data: unknown }[];
  };
  expect(saved.items).toEqual(Object.fromEntries(fresh.data.map((item) => [item.dataId, item.data])));
  expect(saved.items['article-1']).toEqual({ title: 'Edited' });
  expect(saved.items['article-2']).toBeUndefined();
}, 120_000);
