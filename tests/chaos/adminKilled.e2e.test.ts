import { adminKilled } from '../../apps/cli/src/distributed/testing/chaos/adminKilled.js';
import { chaosTest } from './chaosScenario.js';

// The chaos suite: the scenario and its bounds live in the module (shared with `npm run chaos`).
chaosTest(adminKilled, 300_000);
