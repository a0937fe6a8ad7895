import { apiDrain } from './apiDrain.js';
import { brokerOutage } from './brokerOutage.js';
import { coldStart } from './coldStart.js';
import { projectorTakeover } from './projectorTakeover.js';
import { redisClientKill } from './redisClientKill.js';
import { redisFlushed } from './redisFlushed.js';
import { redisFrozen } from './redisFrozen.js';
import type { ChaosScenario } from './scenarioOutcome.js';
import { twoProjectorsFlushed } from './twoProjectorsFlushed.js';

/**
 * Every scenario of issue 23's chaos suite, in the order `npm run chaos` runs them; each test in
 * tests/chaos/ runs one (docs/testing.md, "The chaos tier").
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
];
