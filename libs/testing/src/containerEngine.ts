/**
 * Whether a container engine (Docker, Podman, …) answers, decided within `timeoutMs`: testcontainers
 * rejects at once when none exists, but a DOCKER_HOST that drops packets would hang without the timer.
 */
export const detectContainerEngine = async (timeoutMs = 3_000): Promise<{ available: true } | { available: false; reason: string }> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await Promise.race([getContainerRuntimeClient(), timeout]);
    return { available: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { available: false, reason: `no container engine (${message.split('\n')[0]})` };
  } finally {
    clearTimeout(timer);
  }
};
