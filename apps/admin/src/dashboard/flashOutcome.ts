import { isPubstreamError } from '@pubstream/domain';
import type { Flash } from './sessionStore.js';

/**
 * Runs a form's action and says how it went as the one-time message of the next page: the
 * action's own message, or the refusal's (a 4xx, e.g. a rate limit above the plan's maximum).
 * A server fault (5xx, or not ours) is thrown: the entrance answers it with the error page.
 */
export const flashOutcome = async (action: () => Promise<Flash>): Promise<Flash> => {
  try {
    return await action();
  } catch (error) {
    if (!isPubstreamError(error) || error.status >= 500) throw error;
    return { kind: 'error', message: error.message };
  }
};
