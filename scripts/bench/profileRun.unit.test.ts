import { describe, expect, it } from 'vitest';
import { rowLine, withKeys } from './profileRun.js';
import { findRow } from './scenarioContext.js';
import type { BenchRow } from './report.js';

describe('bench profile runs', () => {
  it('sends the same request once per key, keeping its own headers', () => {
    expect(withKeys(['k1', 'k2'], { method: 'POST', path: '/public/batch', headers: { 'content-type': 'application/json' }, body: '{}' })).toEqual([
      { method: 'POST', path: '/public/batch', headers: { 'content-type': 'application/json', 'x-api-key': 'k1' }, body: '{}' },
      { method: 'POST', path: '/public/batch', headers: { 'content-type': 'application/json', 'x-api-key': 'k2' }, body: '{}' },
    ]);
  });

  it('prints a row with its rounded value, and its p99 when measured', () => {
    const row: BenchRow = { scenario: 'GET item (100 conn)', profile: 'embedded', unit: 'req/s', value: 12345.6, p99Ms: 7 };
    expect(rowLine('embedded', row)).toBe('  [embedded] GET item (100 conn): 12,346 req/s, p99 7 ms');
    expect(rowLine('embedded', { ...row, p99Ms: undefined })).toBe('  [embedded] GET item (100 conn): 12,346 req/s');
  });

  it('finds a row by scenario and profile', () => {
    const rows: BenchRow[] = [
      { scenario: 'GET item (100 conn)', profile: 'embedded', unit: 'req/s', value: 1 },
      { scenario: 'GET item (100 conn)', profile: 'redis+kafka', unit: 'req/s', value: 2 },
    ];
    expect(findRow(rows, 'GET item (100 conn)', 'redis+kafka')?.value).toBe(2);
    expect(findRow(rows, 'GET item (10 conn)', 'embedded')).toBeUndefined();
  });
});
