import type { BenchRow } from './report.js';

/** What every scenario of a run shares: its length, the rows and notes it collects. */
export interface ScenarioContext {
  readonly quick: boolean;
  readonly seconds: number;
  readonly rows: BenchRow[];
  readonly notes: string[];
  readonly only?: string;
  /** `--subscribers=N --writes=N`: the fanout scenario's size instead of the mode's default. */
  readonly fanout?: { readonly subscribers?: number; readonly writesPerSecond?: number };
  /** `--bare-subscribers`: the fanout's counting subscribers on bare TCP sockets (rawSubscriber.ts). */
  readonly bareSubscribers?: boolean;
}

export type Profile = BenchRow['profile'];

export const bytesToMb = (bytes: number): number => bytes / 2 ** 20;

/** A row of this run, by scenario and profile. */
export const findRow = (rows: readonly BenchRow[], scenario: string, profile: Profile): BenchRow | undefined =>
  rows.find((r) => r.scenario === scenario && r.profile === profile);
