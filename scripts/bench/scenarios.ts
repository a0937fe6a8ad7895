import type { BenchRow } from './report.js';

export interface ScenarioContext {
  readonly quick: boolean;
  readonly seconds: number;
  readonly rows: BenchRow[];
  readonly notes: string[];
  readonly only?: string;
}

/** The service scenarios (issue 6); filled in as the service grows. */
export const runScenarios = async (_context: ScenarioContext): Promise<void> => {};
