import { createBenchKeys } from './adminClient.js';
import { runLoad, type LoadRequest, type LoadResult } from './httpLoad.js';
import { cpuMicrosPerRequest, processCpuSeconds } from './processCpu.js';
import type { BenchRow } from './report.js';
import type { Profile, ScenarioContext } from './scenarioContext.js';
import type { BenchService } from './service.js';

/** One profile's measurements against its running service. */
export interface ProfileRun {
  readonly profile: Profile;
  readonly service: BenchService;
  readonly context: ScenarioContext;
  /** API keys, so that no single key's rate limit bounds the load. */
  readonly keys: readonly string[];
  /** Records a row and prints it. */
  push(row: BenchRow): void;
  /**
   * A 1 s warm-up, then `context.seconds` of load; non-2xx answers and errors become notes. Also
   * the API process's CPU time per request of the measured part (NaN without /proc).
   */
  load(scenario: string, requests: LoadRequest[], connections: number): Promise<LoadResult & { apiCpuMicrosPerRequest: number }>;
}

/** The same request once per key. */
export const withKeys = (keys: readonly string[], request: Omit<LoadRequest, 'headers'> & { headers?: Record<string, string> }): LoadRequest[] =>
  keys.map((key) => ({ ...request, headers: { ...request.headers, 'x-api-key': key } }));

/** How a measured row is printed while the run goes on. */
export const rowLine = (profile: Profile, row: BenchRow): string =>
  `  [${profile}] ${row.scenario}: ${Math.round(row.value).toLocaleString('en-US')} ${row.unit}${row.p99Ms === undefined ? '' : `, p99 ${row.p99Ms} ms`}`;

export const startProfileRun = async (profile: Profile, service: BenchService, context: ScenarioContext): Promise<ProfileRun> => ({
  profile,
  service,
  context,
  keys: await createBenchKeys(service, 8),
  push(row) {
    context.rows.push(row);
    console.log(rowLine(profile, row));
  },
  async load(scenario, requests, connections) {
    await runLoad(service.publicUrl, requests, { connections, durationSeconds: 1 }); // warm-up
    const cpuBefore = processCpuSeconds(service.api.child.pid);
    const result = await runLoad(service.publicUrl, requests, { connections, durationSeconds: context.seconds });
    const apiCpuMicrosPerRequest = cpuMicrosPerRequest(cpuBefore, processCpuSeconds(service.api.child.pid), result.total);
    if (result.non2xx > 0 || result.errors > 0) context.notes.push(`${profile} / ${scenario}: ${result.non2xx} non-2xx and ${result.errors} errors of ${result.total} requests`);
    return { ...result, apiCpuMicrosPerRequest };
  },
});
