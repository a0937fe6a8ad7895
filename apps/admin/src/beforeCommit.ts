import { isPubstreamError, ServiceUnavailableError } from '@pubstream/domain';

/** How long a read-model call that a write needs before deciding may take (then 503, nothing written). */
export const READ_MODEL_CALL_TIMEOUT_MS = 2_000;

/**
 * A read-model call a write needs BEFORE it decides: an unreachable or hanging read model
 * answers 503 (nothing was written) instead of 500 or a hang.
 */
export const beforeCommit = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${READ_MODEL_CALL_TIMEOUT_MS} ms`)), READ_MODEL_CALL_TIMEOUT_MS);
  });
  try {
    return await Promise.race([call(), timeout]);
  } catch (error) {
    if (isPubstreamError(error)) throw error;
    throw new ServiceUnavailableError(`The read model is not reachable (${what}); nothing was written, try again shortly`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
};
