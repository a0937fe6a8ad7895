import type { ContainerRuntimeClient } from 'testcontainers';

export type EngineState = { available: true; client: ContainerRuntimeClient; description: string } | { available: false; reason: string };

/**
 * Whether a container engine (Docker, Podman, …) answers, decided within `timeoutMs`: testcontainers
 * rejects at once when none exists, but a DOCKER_HOST that drops packets would hang without the timer.
 */
export const detectContainerEngine = async (timeoutMs = 3_000): Promise<EngineState> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const client = await Promise.race([getContainerRuntimeClient(), timeout]);
    const runtime = client.info.containerRuntime;
    return { available: true, client, description: `${runtime.operatingSystem}, engine ${runtime.serverVersion}, host ${runtime.host}` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { available: false, reason: `no container engine (${message.split('\n')[0]})` };
  } finally {
    clearTimeout(timer);
  }
};
