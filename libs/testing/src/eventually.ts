export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value other than undefined; fails with `what` after `timeoutMs`. */
export const eventually = async <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 50): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError instanceof Error ? ` (last error: ${lastError.message})` : ''}`);
    await sleep(everyMs);
  }
};
