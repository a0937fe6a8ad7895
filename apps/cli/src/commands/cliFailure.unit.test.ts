import { describe, expect, it } from 'vitest';
import { EventLogOpenError } from '@pubstream/event-store';
import { AdminApiError } from '../adminClient.js';
import { CliError } from './cliError.js';
import { describeCliFailure } from './cliFailure.js';

describe('describeCliFailure', () => {
  it('given a usage error, then its line and its exit code', () => {
    expect(describeCliFailure(new CliError('ADMIN_TOKEN is required for "pubstream admin"', 2))).toEqual({
      message: 'pubstream: ADMIN_TOKEN is required for "pubstream admin"',
      exitCode: 2,
    });
  });

  it('given an admin API failure or a log that cannot be opened, then one line and exit code 1', () => {
    expect(describeCliFailure(new AdminApiError(404, 'Not Found', 'Key not found: k1'))).toEqual({ message: 'pubstream: 404 Not Found: Key not found: k1', exitCode: 1 });
    const logError = new EventLogOpenError('/data/events.db', 'The event log /data/events.db cannot be opened for writing');
    expect(describeCliFailure(logError)).toEqual({ message: `pubstream: ${logError.message}`, exitCode: 1 });
  });

  it('given a port in use, then a hint to set the ports', () => {
    const error = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:8080'), { code: 'EADDRINUSE' });
    expect(describeCliFailure(error).message).toBe('pubstream: listen EADDRINUSE: address already in use 127.0.0.1:8080 (another process uses the port; set PORT / ADMIN_PORT)');
  });

  it('given anything else, then its stack (or the value) and exit code 1', () => {
    const error = new TypeError('boom');
    expect(describeCliFailure(error)).toEqual({ message: `pubstream: ${error.stack}`, exitCode: 1 });
    expect(describeCliFailure('thrown string')).toEqual({ message: 'pubstream: thrown string', exitCode: 1 });
    expect(describeCliFailure(null)).toEqual({ message: 'pubstream: null', exitCode: 1 });
  });
});
