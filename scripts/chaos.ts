// `npm run chaos [-- --only=name,name]`: issue 23's fault scenarios by hand, for operators and the
// docs (docs/operations.md, "Failure modes"). The same scenarios as `npm run test:chaos`
// (apps/cli/src/distributed/testing/chaos/): real processes of the distributed profile on
// 127.0.0.1, a Redis of each scenario's own and Kafka from infra/local (or KAFKA_BROKERS when
// set). Prints one line of figures per scenario, then what broke a bound; exits 1 if anything did.
import { startLocalKafka, type LocalKafka } from '@pubstream/testing';
import { CHAOS_SCENARIOS } from '../apps/cli/src/distributed/testing/chaos/chaosScenarios.js';

const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const unknown = only?.filter((name) => !CHAOS_SCENARIOS.some((scenario) => scenario.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${CHAOS_SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const scenarios = CHAOS_SCENARIOS.filter((scenario) => only === undefined || only.includes(scenario.name));

let kafka: LocalKafka | null = null;
const brokers = process.env.KAFKA_BROKERS ?? (kafka = await startLocalKafka()).brokers;
const failed: string[] = [];
const startedAt = Date.now();
console.log(`pubstream chaos: ${scenarios.length} scenario(s), Kafka ${brokers}${kafka ? ' (infra/local/kafka.sh)' : ' (KAFKA_BROKERS)'}`);
try {
  for (const scenario of scenarios) {
    const t0 = Date.now();
    try {
      const outcome = await scenario.run({ brokers });
      const mark = outcome.skipped ? '-' : outcome.problems.length === 0 ? '✔' : '✖';
      console.log(`${mark} ${outcome.name}: ${outcome.line} [${((Date.now() - t0) / 1000).toFixed(0)} s]`);
      for (const problem of outcome.problems) console.log(`    ✖ ${problem}`);
      if (outcome.problems.length > 0) failed.push(scenario.name);
    } catch (error) {
      console.log(`✖ ${scenario.name}: could not run: ${error instanceof Error ? error.message : String(error)}`);
      failed.push(scenario.name);
    }
  }
} finally {
  await kafka?.stop();
}
console.log(`${failed.length === 0 ? 'all bounds held' : `bounds broken in: ${failed.join(', ')}`} (${((Date.now() - startedAt) / 1000).toFixed(0)} s)`);
process.exit(failed.length === 0 ? 0 : 1);
