import { ConcurrencyError, ServiceUnavailableError, isPubstreamError } from '@pubstream/domain';
import { ErrorType, WrongExpectedVersionError, isCommandError } from '@eventstore/db-client';
import { describeEsdbRevision } from './esdbExpectedRevision.js';

const TRANSIENT: ReadonlySet<string> = new Set([
  ErrorType.UNAVAILABLE,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.TIMEOUT,
  ErrorType.NOT_LEADER,
  ErrorType.CANCELLED,
]);

/** Errors after which retrying (resubscribing, reconnecting) can succeed. */
export const isTransientEsdbError = (error: unknown): boolean =>
  error instanceof Error && isCommandError(error) && TRANSIENT.has(error.type);

/**
 * The client's errors as the port's: WrongExpectedVersion becomes ConcurrencyError, a lost
 * connection ServiceUnavailableError, both keeping the original as `cause`. Anything else passes.
 * `streamName` names the stream when the server's error does not.
 */
export const toPortError = (error: unknown, streamName = ''): unknown => {
  if (isPubstreamError(error)) return error;
  if (error instanceof WrongExpectedVersionError) {
    return new ConcurrencyError(
      error.streamName || streamName,
      describeEsdbRevision(error.expectedVersion),
      describeEsdbRevision(error.actualVersion),
      { cause: error },
    );
  }
  if (isTransientEsdbError(error)) return new ServiceUnavailableError('The event store is unavailable, try again shortly', { cause: error });
  return error;
};
