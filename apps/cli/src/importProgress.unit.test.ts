import { describe, expect, it } from 'vitest';
import { createImportProgress } from './importProgress.js';

const stream = (isTTY: boolean) => {
  let written = '';
  return {
    isTTY,
    columns: 100,
    write: (chunk: string) => ((written += chunk), true),
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    on: () => undefined,
    removeListener: () => undefined,
    written: () => written,
  };
};

describe('import progress', () => {
  it('given a terminal and a known total, then a bar with the count and the total', () => {
    const out = stream(true);
    const progress = createImportProgress(out as unknown as NodeJS.WritableStream & { isTTY: boolean }, 4);
    progress.advance(3);
    progress.stop();
    expect(out.written()).toContain('3/4 events');
  });

  it('given no terminal, then nothing is written', () => {
    const out = stream(false);
    const progress = createImportProgress(out as unknown as NodeJS.WritableStream & { isTTY: boolean }, 4);
    progress.advance(4);
    progress.stop();
    expect(out.written()).toBe('');
  });
});
