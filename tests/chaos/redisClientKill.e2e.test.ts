import { redisClientKill } from '../../apps/cli/src/distributed/testing/chaos/redisClientKill.js';
import { chaosTest } from './chaosScenario.js';

// Issue 23's chaos suite: the scenario and its bounds live in the module (shared with `npm run chaos`).
chaosTest(redisClientKill, 300_000);
