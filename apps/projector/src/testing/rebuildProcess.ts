/**
 * A rebuild as its own process, for crash tests (SIGKILL halfway, then resume).
 * Usage: rebuildProcess.ts <sqlitePath> <redisUrl> <namespace> <batchSize>
 * Prints a plain progress line per batch and `finished` at the end.
 */
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { connectRedis, createRedisStores } from '@pubstream/read-model';
import { rebuildReadModels } from '../rebuild.js';
import { createLineProgressReporter } from '../rebuildProgress.js';

const [sqlitePath, redisUrl, namespace, batchSize] = process.argv.slice(2);
if (!sqlitePath || !redisUrl || !namespace || !batchSize) throw new Error('usage: rebuildProcess.ts <sqlitePath> <redisUrl> <namespace> <batchSize>');

const client = await connectRedis(redisUrl, () => {});
const target = createRedisStores(client, { namespace });
const eventStore = createSqliteEventStore(openSqliteDatabase(sqlitePath));
const progress = createLineProgressReporter((line) => void process.stdout.write(line));
await rebuildReadModels({ eventStore, target, batchSize: Number(batchSize), progress, progressEveryMs: 0 });
process.stdout.write('finished\n');
process.exit(0);
