import { ConcurrencyError, ServiceUnavailableError, ValidationError } from '@pubstream/domain';
import { NO_STREAM, UnavailableError, WrongExpectedVersionError } from '@eventstore/db-client';
import type { ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { isTransientEsdbError, toPortError } from './esdbErrors.js';

const grpcError = (code: number, details: string): ServiceError =>
  Object.assign(new Error(details), { code, details, metadata: { get: () => [] } }) as unknown as ServiceError;

describe('EventStoreDB error mapping', () => {
  it('turns WrongExpectedVersion into ConcurrencyError carrying stream, expected, actual and the cause', () => {
    const wrong = new WrongExpectedVersionError(undefined, { streamName: 'item-a', expected: 0n, current: 2n });
    const mapped = toPortError(wrong);
    expect(mapped).toBeInstanceOf(ConcurrencyError);
    expect(mapped).toMatchObject({ streamName: 'item-a', expected: '0', actual: '2', status: 409 });
    expect((mapped as Error).cause).toBe(wrong);
  });

  it('says no_stream when the stream does not exist', () => {
    const wrong = new WrongExpectedVersionError(undefined, { streamName: 'item-b', expected: 'stream_exists', current: NO_STREAM });
    expect(toPortError(wrong)).toMatchObject({ expected: 'stream_exists', actual: 'no_stream' });
  });

  it('falls back to the stream it was told when the server error names none', () => {
    const wrong = new WrongExpectedVersionError(undefined, { streamName: '', expected: NO_STREAM, current: 0n });
    expect(toPortError(wrong, 'item-c')).toMatchObject({ streamName: 'item-c' });
  });

  it('turns an unavailable server into ServiceUnavailableError and calls it transient', () => {
    const unavailable = new UnavailableError(grpcError(14, 'connection refused'));
    expect(isTransientEsdbError(unavailable)).toBe(true);
    const mapped = toPortError(unavailable);
    expect(mapped).toBeInstanceOf(ServiceUnavailableError);
    expect((mapped as Error).cause).toBe(unavailable);
  });

  it('passes other errors through unchanged and does not call them transient', () => {
    const bug = new TypeError('bad');
    expect(toPortError(bug)).toBe(bug);
    expect(isTransientEsdbError(bug)).toBe(false);
    const ours = new ValidationError('x');
    expect(toPortError(ours)).toBe(ours);
    expect(isTransientEsdbError(new WrongExpectedVersionError(undefined, { streamName: 'a', expected: 0n, current: 1n }))).toBe(false);
  });
});
