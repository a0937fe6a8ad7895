// `node --import tsx scripts/bench/profileSummary.ts <file.cpuprofile> [top] [--last=<seconds>] [--skip-last=<seconds>]`:
// self time of a `node --cpu-prof` profile by function and by file (only the last seconds of the
// run with --last, leaving out the very last seconds with --skip-last), the summaries docs/BENCHMARKS.md quotes.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const [file, topText] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const lastSeconds = Number(process.argv.find((a) => a.startsWith('--last='))?.slice('--last='.length) ?? Infinity);
const skipLastSeconds = Number(process.argv.find((a) => a.startsWith('--skip-last='))?.slice('--skip-last='.length) ?? 0);
if (!file) throw new Error('usage: profileSummary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
const span = profile.timeDeltas.reduce((a, b) => a + b, 0);
let at = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (span - at <= (lastSeconds + skipLastSeconds) * 1e6 && span - at >= skipLastSeconds * 1e6) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  const where = frame.url.replace(/^.*\/(node_modules\/|libs\/|apps\/)/, '$1') || '(native)';
  add(byFunction, `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`, us);
  add(byFile, where, us);
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(topText ?? 20))) console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`);
};
console.log(`${(total / 1e6).toFixed(2)} s sampled`);
print('self time by function', byFunction);
print('self time by file', byFile);
