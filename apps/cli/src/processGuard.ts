import type { EventEmitter } from 'node:events';
import type { Logger } from '@pubstream/observability';

/**
 * The last resort of the serving processes (docs/security.md): an exception or rejection that
 * escaped every request's own handling (the error middleware answers 500 for those) is logged
 * and the process keeps serving. One bad request must not end every other client's connection;
 * the guard is a backstop, and every error it logs is a bug to fix where it was thrown.
 */
export const installProcessGuard = (logger: Logger, target: EventEmitter = process): void => {
  target.on('uncaughtException', (error: unknown, origin: unknown) => {
    logger.error({ err: error, origin }, 'uncaught exception: logged, the process keeps serving');
  });
  target.on('unhandledRejection', (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled rejection: logged, the process keeps serving');
  });
};
