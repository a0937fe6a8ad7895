import { projectorFrozen } from '../../apps/cli/src/distributed/testing/chaos/projectorFrozen.js';
import { chaosTest } from './chaosScenario.js';

// The chaos suite: the scenario and its bounds live in the module (shared with `npm run chaos`).
chaosTest(projectorFrozen, 300_000);
