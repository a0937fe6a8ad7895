import { EventEmitter } from 'node:events';
import type { Logger } from '@pubstream/observability';
import { describe, expect, it } from 'vitest';
import { installProcessGuard } from './processGuard.js';

const recordingLogger = () => {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const logger = { error: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) } as unknown as Logger;
  return { lines, logger };
};

describe('installProcessGuard', () => {
  it('logs an uncaught exception and an unhandled rejection instead of letting them end the process', () => {
    const target = new EventEmitter();
    const { lines, logger } = recordingLogger();
    installProcessGuard(logger, target);
    const error = new RangeError('Invalid string length');
    expect(target.emit('uncaughtException', error, 'uncaughtException')).toBe(true);
    expect(target.emit('unhandledRejection', 'a reason', Promise.resolve())).toBe(true);
    expect(lines).toEqual([
      { fields: { err: error, origin: 'uncaughtException' }, message: 'uncaught exception: logged, the process keeps serving' },
      { fields: { err: 'a reason' }, message: 'unhandled rejection: logged, the process keeps serving' },
    ]);
  });
});
