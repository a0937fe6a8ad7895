import type { BenchService } from './service.js';

/** The few admin calls the benchmarks need to set up their data. */
export const adminCall = async (service: BenchService, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<unknown> => {
  const response = await fetch(`${service.adminUrl}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${service.adminToken}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /admin${path} → ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
};

/** Enterprise plan, and `count` keys at the plan's maximum, so the load measures work, not 429s. */
export const createBenchKeys = async (service: BenchService, count: number): Promise<string[]> => {
  await adminCall(service, 'PUT', '/plan', { plan: 'enterprise', monthlyQuota: null });
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = (await adminCall(service, 'POST', '/keys', { name: `bench ${i}`, type: 'live', allowedDomains: [], rateLimit: 100_000 })) as { key: string };
    keys.push(created.key);
  }
  return keys;
};

const itemLine = (i: number): string =>
  JSON.stringify({ dataId: `item-${String(i).padStart(7, '0')}`, data: { title: `Item ${i}`, score: (i * 7919) % 100_003, tag: `t${i % 97}` } });

/** Imports items [from, to) by NDJSON in chunks; returns items per second. */
export const importItems = async (service: BenchService, slug: string, from: number, to: number, chunk = 20_000): Promise<number> => {
  const started = performance.now();
  for (let start = from; start < to; start += chunk) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(to, start + chunk); i++) lines.push(itemLine(i));
    await adminCall(service, 'POST', `/collections/${slug}/items:import`, lines.join('\n') + '\n', 'application/x-ndjson');
  }
  return (to - from) / ((performance.now() - started) / 1000);
};
