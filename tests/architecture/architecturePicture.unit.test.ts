import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph } from './importGraph.js';

// docs/architecture.md, "Processes, ports and adapters": every box of its picture is a folder and
// every arrow an import that exists in non-test code. Reads source files only (no servers).
const ROOT = resolve(import.meta.dirname, '../..');

const picture = (): { boxes: Map<string, string>; arrows: [string, string][] } => {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  const boxes = new Map<string, string>();
  const arrows: [string, string][] = [];
  for (const line of block.split('\n').map((text) => text.trim())) {
    const box = /^(\w+)\["([^"<]+)/.exec(line);
    if (box?.[1] && box[2]) boxes.set(box[1], box[2].trim());
    const arrow = /^(\w+) --> (\w+)$/.exec(line);
    if (arrow?.[1] && arrow[2]) arrows.push([arrow[1], arrow[2]]);
  }
  return { boxes, arrows };
};

/** The deepest box folder a file lies in (an adapter folder before its package). */
const boxOf = (file: string, folders: readonly string[]): string | undefined =>
  folders.filter((folder) => file.startsWith(`${folder}/`)).sort((a, b) => b.length - a.length)[0];

describe('the architecture picture', () => {
  const { boxes, arrows } = picture();

  it('has boxes and arrows (the check can fail)', () => {
    expect(boxes.size).toBeGreaterThan(10);
    expect(arrows.length).toBeGreaterThan(20);
  });

  it('names a folder of the repository in every box', () => {
    for (const folder of boxes.values()) expect(existsSync(join(ROOT, folder)) && statSync(join(ROOT, folder)).isDirectory(), folder).toBe(true);
  });

  it('draws only arrows that are imports in non-test code', () => {
    const folders = [...boxes.values()];
    const imports = new Set<string>();
    for (const [from, targets] of importGraph(ROOT)) {
      if (from.endsWith('.test.ts') || from.includes('/testing/')) continue;
      const a = boxOf(from, folders);
      for (const to of targets) {
        const b = boxOf(to, folders);
        if (a && b && a !== b) imports.add(`${a} -> ${b}`);
      }
    }
    const drawn = arrows.map(([a, b]) => `${boxes.get(a) ?? a} -> ${boxes.get(b) ?? b}`);
    expect(drawn.filter((arrow) => !imports.has(arrow))).toEqual([]);
  });
});
