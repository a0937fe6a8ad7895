import { projectorTakeover } from '../../apps/cli/src/distributed/testing/chaos/projectorTakeover.js';
import { chaosTest } from './chaosScenario.js';

// Issue 23's chaos suite: the scenario and its bounds live in the module (shared with `npm run chaos`).
chaosTest(projectorTakeover, 300_000);
