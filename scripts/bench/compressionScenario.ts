import { request } from 'node:http';
import { withKeys, type ProfileRun } from './profileRun.js';

const PAGE = '/public/collections/bench/data?sort=createdAt&limit=50&page=3';

/** The body size of one answer to PAGE with this Accept-Encoding (node:http: the bytes on the wire). */
const wireBytes = (baseUrl: string, key: string, acceptEncoding: string | null): Promise<{ bytes: number; coding: string }> =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'x-api-key': key, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) };
    request(`${baseUrl}${PAGE}`, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, coding: String(res.headers['content-encoding'] ?? 'identity') }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });

/**
 * Compression on the hot path (docs/public-api.md, "Caching and compression"): the same page of 50
 * items read without Accept-Encoding, with gzip and with br, in the same run; the compressed rows'
 * ratio is against the uncompressed one (a cached page is compressed once per version, so the
 * target is parity), and the note gives the bytes on the wire.
 */
export const measureCompression = async (run: ProfileRun): Promise<void> => {
  const identity = await run.load('GET page of 50, identity', withKeys(run.keys, { path: PAGE }), 100);
  run.push({ scenario: 'GET page of 50, no compression', profile: run.profile, unit: 'req/s', value: identity.requestsPerSecond, p50Ms: identity.p50Ms, p99Ms: identity.p99Ms });
  const plain = await wireBytes(run.service.publicUrl, run.keys[0] ?? '', null);
  for (const coding of ['gzip', 'br']) {
    const result = await run.load(`GET page of 50, ${coding}`, withKeys(run.keys, { path: PAGE, headers: { 'accept-encoding': coding } }), 100);
    const sent = await wireBytes(run.service.publicUrl, run.keys[0] ?? '', coding);
    const ratio = result.requestsPerSecond / identity.requestsPerSecond;
    run.push({
      scenario: `GET page of 50, ${coding} (${sent.bytes.toLocaleString('en-US')} of ${plain.bytes.toLocaleString('en-US')} bytes)`,
      profile: run.profile,
      unit: 'req/s',
      value: result.requestsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      baseline: 'no compression',
      ratio,
      target: '≥ 0.9× no compression',
      met: ratio >= 0.9 && sent.coding === coding,
    });
  }
};
