import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';

describe('eventually', () => {
  it('given a check that succeeds on the third try, then its value', async () => {
    let tries = 0;
    await expect(eventually('three tries', async () => (++tries === 3 ? 'ok' : undefined), 5_000, 1)).resolves.toBe('ok');
    expect(tries).toBe(3);
  });

  it('given a check that never succeeds, then a timeout naming what was awaited and the last error', async () => {
    const check = async (): Promise<string | undefined> => {
      throw new Error('connection refused');
    };
    await expect(eventually('the server', check, 20, 1)).rejects.toThrow('timed out waiting for the server (last error: connection refused)');
  });
});
