import { expect, it } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import type { ChaosScenario } from '../../apps/cli/src/distributed/testing/chaos/scenarioOutcome.js';

/**
 * Registers one chaos scenario as a test (docs/testing.md, "The chaos tier"): it runs on the
 * suite's Kafka (or a broker of its own), prints its one line of figures, and fails with every
 * bound of issue 23 it broke. `timeoutMs` only guards against a hang: a scenario bounds its own
 * waits, and on a machine at a load of 50 starting its processes alone can take a minute.
 */
export const chaosTest = (scenario: ChaosScenario, timeoutMs: number): void => {
  describeWithBackend('kafka', `chaos: ${scenario.name}`, (brokers) => {
    it(scenario.title, async (context) => {
      const outcome = await scenario.run({ brokers });
      console.log(`[chaos] ${outcome.name}: ${outcome.line}`);
      if (outcome.skipped !== undefined) context.skip(outcome.skipped);
      expect(outcome.problems).toEqual([]);
    }, timeoutMs);
  });
};
