import { describe, expect, it } from 'vitest';
import { StreamEntry } from './hubStream.js';
import { HEARTBEAT_FRAME } from './sseFrames.js';
import { readyFrame } from './sseFrames.js';
import type { SubscriptionStart } from './streamSubscription.js';
import { recordingConnection } from './testing/recordingConnection.js';

const params = { keyId: 'k1', keyHash: 'h1', dataIds: ['hero'], slugs: ['news'] };
const emptySnapshot: SubscriptionStart = { kind: 'snapshot', reset: false, items: new Map(), pages: [], position: 4, missingSlugs: [], itemFrame: () => '' };
const pageSnapshot: SubscriptionStart = { ...emptySnapshot, pages: [{ slug: 'news', seq: 1, json: '{}', frame: 'page\n\n', missing: false }] };

describe('StreamEntry', () => {
  it('given the hub ends a stream before it is attached, then it is marked and, once attached, ends at once with that reason', () => {
    const entry = new StreamEntry(params, 0);
    entry.end('key_revoked', undefined);
    expect(entry.endedBeforeStart).toBe('key_revoked');
    const connection = recordingConnection();
    const ended: string[] = [];
    entry.attach(connection, pageSnapshot, (reason) => void ended.push(reason));
    expect(connection.frames).toEqual([]);
    expect(connection.ends).toEqual([{ reason: 'key_revoked', retryAfterMs: undefined }]);
    expect(ended).toEqual(['key_revoked']);
  });

  it('given an attached stream, then the snapshot goes as a snapshot, and end goes through the connection with its wait', () => {
    const entry = new StreamEntry(params, 0);
    const connection = recordingConnection();
    entry.attach(connection, pageSnapshot, () => {});
    expect(connection.snapshotFrames).toEqual(['page\n\n', readyFrame(4)]);
    entry.end('slow_consumer', 7_000);
    expect(connection.ends).toEqual([{ reason: 'slow_consumer', retryAfterMs: 7_000 }]);
    expect(entry.endedBeforeStart).toBeNull();
  });

  it('given a removed stream, then attaching ends the connection (shutdown when no reason was given) and end does nothing', () => {
    const entry = new StreamEntry(params, 0);
    expect(entry.markRemoved()).toBe(true);
    expect(entry.markRemoved()).toBe(false);
    entry.end('cycle', undefined);
    expect(entry.endedBeforeStart).toBeNull();
    const connection = recordingConnection();
    entry.attach(connection, pageSnapshot, () => {});
    expect(connection.ends).toEqual([{ reason: 'shutdown', retryAfterMs: undefined }]);
    expect(entry.connection).toBeNull();
  });

  it('sends heartbeats only once live, and catches up only an attached stream, buffering from the given seq', () => {
    const entry = new StreamEntry(params, 3);
    expect(entry.beginCatchUp(9)).toBeNull();
    expect(entry.bufferedSince).toBe(3);
    const connection = recordingConnection();
    entry.attach(connection, emptySnapshot, () => {});
    entry.heartbeat(HEARTBEAT_FRAME);
    expect(connection.frames).toEqual([readyFrame(4), HEARTBEAT_FRAME]);
    expect(entry.beginCatchUp(9)).toBe(connection);
    expect(entry.bufferedSince).toBe(9);
    entry.heartbeat(HEARTBEAT_FRAME);
    expect(connection.frames).toEqual([readyFrame(4), HEARTBEAT_FRAME]);
  });
});
