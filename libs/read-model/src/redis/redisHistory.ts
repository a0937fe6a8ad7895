import type { ChangeHistory } from '../changeHistory.js';
import type { RedisCommands } from './redisCommands.js';
import type { RedisKeys } from './redisKeys.js';

/** The change history on Redis (docs/read-models.md, "Change history"). PORTS STAGE: not yet written. */
export const createRedisHistory = (_commands: RedisCommands, _key: RedisKeys, _now: () => Date): ChangeHistory => ({
  async historyFloor() {
    return 0;
  },
  async itemChanges() {
    return [];
  },
  async collectionChanges() {
    return { changes: [], hasMore: false, lastChange: 0 };
  },
});
