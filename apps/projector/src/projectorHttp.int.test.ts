import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createProjectorHttpHandler } from './projectorHttp.js';
import { registerProjectorMetrics } from './projectorMetrics.js';
import type { ProjectorSnapshot } from './projectorOptions.js';
import { itemEvent } from './testing/recordedEvents.js';

const SNAPSHOT: ProjectorSnapshot = { name: 'projector', state: 'running', active: true, applied: 3, published: 2, publisher: 'retrying', eventsApplied: 3, messagesPublished: 2 };

let server: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

const serve = async (snapshot: () => ProjectorSnapshot, draining = () => false): Promise<string> => {
  const metrics = new Registry();
  const log = [itemEvent(1, 'a'), itemEvent(2, 'b'), itemEvent(3, 'a', 1), itemEvent(5, 'c')];
  registerProjectorMetrics(metrics, {
    eventStore: {
      headPosition: async () => 5,
      async *readAll({ after = 0, maxCount = Infinity } = {}) {
        yield* log.filter((e) => e.position > after).slice(0, maxCount);
      },
    },
    checkpoints: { getCheckpoint: async (name) => (name === 'projector' ? 5 : 4) },
    snapshot,
    now: () => new Date(log[3]!.recordedAt.getTime() + 7_000),
  });
  server = createServer(createProjectorHttpHandler({ snapshot, metrics, draining }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
};

describe('projector HTTP', () => {
  it('serves /healthz, /readyz with its role, and JSON 404 / 405 for the rest', async () => {
    const url = await serve(() => SNAPSHOT);
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({ status: 'ready', role: 'active', applied: 3, published: 2 });
    const missing = await fetch(`${url}/admin`);
    expect([missing.status, await missing.json()]).toEqual([404, { error: 'not_found', message: 'No route /admin' }]);
    expect((await fetch(`${url}/readyz`, { method: 'POST' })).status).toBe(405);
  });

  it('/readyz is 503 with Retry-After while draining or retrying; a standby is ready', async () => {
    let draining = false;
    let snapshot: ProjectorSnapshot = { ...SNAPSHOT, state: 'waiting-for-lease', active: false };
    const url = await serve(() => snapshot, () => draining);
    expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({ role: 'standby' });
    snapshot = { ...SNAPSHOT, state: 'retrying', active: false };
    const retrying = await fetch(`${url}/readyz`);
    expect([retrying.status, retrying.headers.get('retry-after')]).toEqual([503, '1']);
    draining = true;
    expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({ error: 'shutting_down' });
  });

  it('/metrics: the active gauge, both cursors with their lag in positions and seconds, throughput', async () => {
    let snapshot = SNAPSHOT;
    const url = await serve(() => snapshot);
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(text).toContain('pubstream_projector_active 1');
    expect(text).toContain('pubstream_projector_position{cursor="applied"} 3');
    expect(text).toContain('pubstream_projector_lag_positions{cursor="published"} 3');
    expect(text).toContain('pubstream_projector_lag_seconds{cursor="applied"} 7');
    expect(text).toContain('pubstream_projector_lag_seconds{cursor="published"} 9');
    expect(text).toContain('pubstream_projector_events_applied_total 3');
    expect(text).toContain('pubstream_projector_publish_retrying 1');
    // A standby reports the stored checkpoints of the active one.
    snapshot = { ...SNAPSHOT, state: 'waiting-for-lease', active: false };
    await new Promise((resolve) => setTimeout(resolve, 150));
    const standby = await (await fetch(`${url}/metrics`)).text();
    expect(standby).toContain('pubstream_projector_active 0');
    expect(standby).toContain('pubstream_projector_lag_positions{cursor="applied"} 0');
    expect(standby).toContain('pubstream_projector_position{cursor="published"} 4');
  });
});
