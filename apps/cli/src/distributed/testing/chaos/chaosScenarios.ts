import { adminKilled } from './adminKilled.js';
import { apiDrain } from './apiDrain.js';
import { apiKilled } from './apiKilled.js';
import { brokerOutage } from './brokerOutage.js';
import { coldStart } from './coldStart.js';
import { eventLogLocked } from './eventLogLocked.js';
import { projectorFrozen } from './projectorFrozen.js';
import { projectorTakeover } from './projectorTakeover.js';
import { redisClientKill } from './redisClientKill.js';
import { redisFlushed } from './redisFlushed.js';
import { redisFrozen } from './redisFrozen.js';
import type { ChaosScenario } from './scenarioOutcome.js';
import { twoProjectorsFlushed } from './twoProjectorsFlushed.js';

/**
 * Every scenario of the chaos suite, in the order `npm run chaos` runs them; each test in
 * tests/chaos/ runs one (docs/testing.md, "The chaos tier"). The first eight are issue 23's
 * "Must show"; the others give the failure-mode table its remaining rows (docs/operations.md).
 */
export const CHAOS_SCENARIOS: readonly ChaosScenario[] = [
  brokerOutage,
  redisFrozen,
  redisClientKill,
  apiDrain,
  redisFlushed,
  twoProjectorsFlushed,
  coldStart,
  projectorTakeover,
  projectorFrozen,
  apiKilled,
  adminKilled,
  eventLogLocked,
];
