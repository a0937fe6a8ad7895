import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every TypeScript file of the repository's own code, tests included (paths relative to `root`). */
export const sourceFiles = (root: string): string[] => {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(relative(root, path));
    }
  };
  for (const top of ['apps', 'libs', 'scripts', 'tests']) if (existsSync(join(root, top))) walk(join(root, top));
  return files.sort();
};

type ExportTarget = string | { readonly default?: string; readonly import?: string };

/** `@pubstream/<name>[/<subpath>]` → the file its package.json `exports` names. */
const workspaceTarget = (root: string, specifier: string): string | null => {
  const match = /^@pubstream\/([^/]+)(\/.*)?$/.exec(specifier);
  if (!match) return null;
  for (const floor of ['libs', 'apps']) {
    const manifest = join(root, floor, match[1] ?? '', 'package.json');
    if (!existsSync(manifest)) continue;
    const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, ExportTarget> }).exports ?? {};
    const target = exports[`.${match[2] ?? ''}`];
    const path = typeof target === 'string' ? target : (target?.default ?? target?.import);
    return path === undefined ? null : relative(root, resolve(dirname(manifest), path));
  }
  return null;
};

const relativeTarget = (root: string, from: string, specifier: string): string | null => {
  const base = resolve(root, dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate);
  }
  return null;
};

/**
 * The import graph of the repository's own files: every `import`, `import type`, `export … from`
 * and dynamic `import()` of a relative path or an `@pubstream/*` package, resolved to a file.
 */
export const importGraph = (root: string): Map<string, string[]> => {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => (fileName.startsWith('.') ? relativeTarget(root, file, fileName) : workspaceTarget(root, fileName)))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
};

/** The strongly connected components with more than one file, or one file importing itself (Tarjan). */
export const importCycles = (graph: ReadonlyMap<string, readonly string[]>): string[][] => {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
};
