import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AllInOne } from '../../apps/cli/src/allInOne.js';
import { openSse } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { createTestKey, startClientServer } from './support/clientServer.js';

// Every answer of both APIs carries X-Request-Id: the client's own when it sent a sane one, else a
// new one; refusals and event streams included (docs/operations.md, request ids).

const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-request-ids-'));
let server: AllInOne;
let key: string;

beforeAll(async () => {
  server = await startClientServer(dataDir);
  key = await createTestKey(server, 'request ids');
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('X-Request-Id', () => {
  it('is echoed when the client sends a sane one, on a success and on a refusal', async () => {
    const ok = await fetch(`${server.publicUrl}/healthz`, { headers: { 'X-Request-Id': 'trace-42' } });
    expect(ok.headers.get('x-request-id')).toBe('trace-42');
    const refused = await fetch(`${server.publicUrl}/public/data/nothing`, { headers: { 'X-Request-Id': 'trace-43' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBe('trace-43');
  });

  it('is generated when missing or not sane, different for every request', async () => {
    const a = await fetch(`${server.publicUrl}/public/data/nothing`, { headers: { 'X-API-Key': key } });
    const b = await fetch(`${server.publicUrl}/public/data/nothing`, { headers: { 'X-API-Key': key, 'X-Request-Id': 'x'.repeat(500) } });
    expect(a.status).toBe(404);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('is on admin answers (a 401 without a token too) and on a live event stream', async () => {
    const admin = await fetch(`${server.adminUrl}/admin/keys`, { headers: { 'X-Request-Id': 'ops-1' } });
    expect(admin.status).toBe(401);
    expect(admin.headers.get('x-request-id')).toBe('ops-1');
    const stream = await openSse(`${server.publicUrl}/subscribe?apiKey=${key}&dataIds=anything`, { 'X-Request-Id': 'stream-1' });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['x-request-id']).toBe('stream-1');
    } finally {
      stream.close();
    }
  });
});
