import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';

/** One line of the benchmark table. Every figure is judged against a baseline of the same run. */
export interface BenchRow {
  readonly scenario: string;
  readonly profile: 'baseline' | 'embedded' | 'redis' | 'redis+kafka' | 'pocketbase';
  readonly unit: 'req/s' | 'events/s' | 'items/s' | 'ops/s' | 'KB/stream' | 'MB' | '%' | 'ms';
  readonly value: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly peakRssMb?: number;
  /** Name of the row this one is compared with, and the ratio value / baseline value. */
  readonly baseline?: string;
  readonly ratio?: number;
  /** The goal (issue 6) in words, and whether this run met it. */
  readonly target?: string;
  readonly met?: boolean;
  readonly note?: string;
}

const fmt = (n: number | undefined, digits = 0): string =>
  n === undefined || Number.isNaN(n) ? '' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const renderTable = (rows: readonly BenchRow[]): string => {
  const header = ['scenario', 'profile', 'value', 'unit', 'p50 ms', 'p99 ms', 'peak RSS MB', 'ratio', 'vs', 'target', 'met'];
  const lines = rows.map((r) => [
    r.scenario,
    r.profile,
    fmt(r.value),
    r.unit,
    fmt(r.p50Ms, 1),
    fmt(r.p99Ms, 1),
    fmt(r.peakRssMb, 0),
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
    r.baseline ?? '',
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
};

const machineDescription = (): string =>
  `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}, load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} (1/5/15 min)`;

/** Writes bench-results/<stamp>.json (every run) and, for full runs, `tableFile` (docs/BENCHMARKS-table.md by default). */
export const writeResults = (rows: readonly BenchRow[], meta: { quick: boolean; command: string; startedAt: Date; notes: string[] }, tableFile: string | null = 'docs/BENCHMARKS-table.md'): string => {
  mkdirSync('bench-results', { recursive: true });
  const stamp = meta.startedAt.toISOString().replace(/[:.]/g, '-');
  const json = { ...meta, machine: machineDescription(), rows };
  writeFileSync(`bench-results/${stamp}.json`, JSON.stringify(json, null, 2));
  writeFileSync('bench-results/latest.json', JSON.stringify(json, null, 2));
  const markdown = [
    `Run: \`${meta.command}\` on ${meta.startedAt.toISOString()} (${meta.quick ? 'quick' : 'full'} mode)`,
    `Machine: ${machineDescription()}`,
    '',
    renderTable(rows),
    '',
    ...meta.notes.map((n) => `- ${n}`),
  ].join('\n');
  if (!meta.quick && tableFile) writeFileSync(tableFile, markdown + '\n');
  return markdown;
};
