import { redisFrozen } from '../../apps/cli/src/distributed/testing/chaos/redisFrozen.js';
import { chaosTest } from './chaosScenario.js';

// Issue 23's chaos suite: the scenario and its bounds live in the module (shared with `npm run chaos`).
chaosTest(redisFrozen, 300_000);
