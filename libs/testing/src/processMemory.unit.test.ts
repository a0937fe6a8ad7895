import { describe, expect, it } from 'vitest';
import { processMemory, statusFieldBytes } from './processMemory.js';

const status = 'Name:\tnode\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t11\n';

describe('process memory', () => {
  it('reads VmRSS and VmHWM fields in bytes, and 0 for a field that is not there', () => {
    expect(statusFieldBytes(status, 'VmRSS')).toBe(102_400 * 1024);
    expect(statusFieldBytes(status, 'VmHWM')).toBe(204_800 * 1024);
    expect(statusFieldBytes(status, 'VmSwap')).toBe(0);
  });

  it('gives zeros for a process that does not exist', () => {
    expect(processMemory(2 ** 30)).toEqual({ rss: 0, peak: 0 });
  });
});
