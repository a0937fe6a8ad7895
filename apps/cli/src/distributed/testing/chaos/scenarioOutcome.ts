/**
 * What one chaos scenario found (docs/operations.md, "Failure modes"): one line of figures for
 * operators, and the bounds of issue 23 it broke (empty when it held). Tests assert `problems`
 * is empty; `npm run chaos` prints `line`.
 */
export interface ScenarioOutcome {
  readonly name: string;
  readonly line: string;
  readonly problems: readonly string[];
  /** Set when the scenario could not run here (e.g. no Java for a broker of its own). */
  readonly skipped?: string;
}

/** A chaos scenario: runs its processes and fault on `brokers` (or a broker of its own), then stops all of it. */
export interface ChaosScenario {
  readonly name: string;
  /** What it injects and what it asserts, in one sentence (the test's title). */
  readonly title: string;
  readonly run: (context: { readonly brokers: string }) => Promise<ScenarioOutcome>;
}

/** Seconds with one decimal (`1.4 s`) for figures. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The problems of `checks`: each entry is a message when its condition failed, else null. */
export const problemsOf = (checks: readonly (string | null | false | undefined)[]): string[] => checks.filter((check): check is string => typeof check === 'string');
