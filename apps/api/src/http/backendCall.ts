import { isPubstreamError, ServiceUnavailableError } from '@pubstream/domain';

/**
 * Awaits a backend call (read model, change stream). A failure that is not one of our errors is
 * an unreachable or failing backend: 503, never 500, so clients know to retry.
 */
export const backendCall = async <T>(call: Promise<T>): Promise<T> => {
  try {
    return await call;
  } catch (error) {
    if (isPubstreamError(error)) throw error;
    throw new ServiceUnavailableError(undefined, { cause: error });
  }
};
