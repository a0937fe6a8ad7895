import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './importGraph.js';

// docs/architecture.md, "No import cycles": a module that imports (even a type from) a module that
// imports it back cannot be understood, tested or moved on its own. This reads the repository's
// source files (no servers), so it runs with the unit tests.
const ROOT = resolve(import.meta.dirname, '../..');

describe('the import graph', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });

  it('resolves relative imports and @pubstream/* packages to files', () => {
    const graph = importGraph(ROOT);
    expect(graph.get('apps/cli/src/embeddedCore.ts')).toEqual(expect.arrayContaining(['apps/projector/src/index.ts', 'apps/cli/src/adapters.ts']));
    expect(graph.size).toBeGreaterThan(300);
  });

  it('has no cycle anywhere in apps, libs, scripts and tests, type-only imports included', () => {
    expect(importCycles(importGraph(ROOT))).toEqual([]);
  });
});
