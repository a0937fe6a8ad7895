import { eventLogLocked } from '../../apps/cli/src/distributed/testing/chaos/eventLogLocked.js';
import { chaosTest } from './chaosScenario.js';

// The chaos suite: the scenario and its bounds live in the module (shared with `npm run chaos`).
chaosTest(eventLogLocked, 300_000);
