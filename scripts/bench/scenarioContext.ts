import type { BenchRow } from './report.js';

/** What every scenario of a run shares: its length, the rows and notes it collects. */
export interface ScenarioContext {
  readonly quick: boolean;
  readonly seconds: number;
  readonly rows: BenchRow[];
  readonly notes: string[];
  readonly only?: string;
}

export type Profile = BenchRow['profile'];

export const bytesToMb = (bytes: number): number => bytes / 2 ** 20;

/** A row of this run, by scenario and profile. */
export const findRow = (rows: readonly BenchRow[], scenario: string, profile: Profile): BenchRow | undefined =>
  rows.find((r) => r.scenario === scenario && r.profile === profile);
