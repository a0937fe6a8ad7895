import { apiKilled } from '../../apps/cli/src/distributed/testing/chaos/apiKilled.js';
import { chaosTest } from './chaosScenario.js';

// The chaos suite: the scenario and its bounds live in the module (shared with `npm run chaos`).
chaosTest(apiKilled, 300_000);
