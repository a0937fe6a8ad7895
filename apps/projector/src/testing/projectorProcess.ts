/**
 * A projector as its own process, for crash tests (SIGKILL): SQLite log file + Redis read model
 * with the projector lease. Usage: projectorProcess.ts <sqlitePath> <redisUrl> <namespace> <holder> <ttlMs>
 * Prints one line `active <token>` once it holds the lease.
 */
import { createInProcessChangeStream } from '@pubstream/change-stream';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { connectRedis, createRedisStores } from '@pubstream/read-model';
import { createProjector } from '../projector.js';

const [sqlitePath, redisUrl, namespace, holder, ttl] = process.argv.slice(2);
if (!sqlitePath || !redisUrl || !namespace || !holder || !ttl) throw new Error('usage: projectorProcess.ts <sqlitePath> <redisUrl> <namespace> <holder> <ttlMs>');

const client = await connectRedis(redisUrl, () => {});
const stores = createRedisStores(client, { namespace });
const eventStore = createSqliteEventStore(openSqliteDatabase(sqlitePath), { pollIntervalMs: 20 });
const quiet = () => {};
const logger = {
  debug: quiet,
  warn: quiet,
  error: quiet,
  info: (obj: object, msg: string) => {
    if (msg.startsWith('projector lease acquired')) process.stdout.write(`active ${(obj as { token?: number }).token}\n`);
  },
};
const projector = createProjector({ eventStore, stores, changeStream: createInProcessChangeStream(), logger, batchSize: 5, lease: { holder, ttlMs: Number(ttl) } });
projector.start();
process.on('SIGTERM', () => {
  void projector.stop().then(() => process.exit(0));
});
