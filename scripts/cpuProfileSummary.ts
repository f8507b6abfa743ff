// Where a process spent its CPU: self time of V8 .cpuprofile files (node --cpu-prof; the cluster bench writes
// them with BENCH_CPU_PROF=dir) aggregated by function and by package, so two runs can be compared by share.
//
//   npx tsx scripts/cpuProfileSummary.ts [--top N] [--window FROM:TO[,FROM:TO...]] FILE.cpuprofile...
//
// Several files are summed (e.g. the three nodes of a cluster). --window keeps only samples inside the given
// spans of the monotonic clock in µs (V8 stamps samples with it, as process.hrtime does in any process of the
// machine; bench:cluster prints its measured windows so), leaving start-up and set-up out.
import { readFileSync } from 'node:fs';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** V8's pseudo-frames, kept apart from the code's own. */
const PSEUDO = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

/** Short location of a frame: the package under node_modules, node's own module, or the repository path. */
function placeOf(url: string): string {
  if (url === '') return '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1] ?? url;
  if (url.startsWith('node:')) return url;
  const repo = /\/(?:dist\/)?((?:src|cluster|actors|proto|gen)\/.*)$/.exec(url);
  return repo?.[1] ?? url.replace(/^file:\/\//, '');
}

/** The package a place belongs to (`src/http/...` → `src/http`), for the coarse table. */
function groupOf(place: string): string {
  if (place.startsWith('node:')) return 'node: (core modules)';
  const parts = place.split('/');
  return parts.length > 2 ? `${parts[0] ?? ''}/${parts[1] ?? ''}` : place;
}

const files = process.argv
  .slice(2)
  .filter((arg, index, all) => !arg.startsWith('--') && !all[index - 1]?.startsWith('--'));
if (files.length === 0) {
  process.stderr.write(
    'usage: npx tsx scripts/cpuProfileSummary.ts [--top N] [--window FROM:TO,...] FILE.cpuprofile...\n',
  );
  process.exit(2);
}
const top = option('--top', 30);
const windowIndex = process.argv.indexOf('--window');
const windows = (windowIndex > 0 ? (process.argv[windowIndex + 1] ?? '') : '')
  .split(',')
  .filter((span) => span !== '')
  .map((span) => span.split(':').map(Number) as [number, number]);
const inWindow = (at: number): boolean => windows.length === 0 || windows.some(([from, to]) => at >= from && at <= to);

const byFunction = new Map<string, number>();
const byGroup = new Map<string, number>();
/** Self time of node's core and native frames charged to the code that called them (who wrote to sockets). */
const byCaller = new Map<string, number>();
let total = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const callerOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const url = frames.get(at)?.url ?? '';
      if (url !== '' && !url.startsWith('node:')) return groupOf(placeOf(url));
    }
    return '(node itself)';
  };
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const frame = frames.get(id);
    if (!frame || !inWindow(at) || frame.functionName === '(idle)') return;
    const place = PSEUDO.has(frame.functionName) ? frame.functionName : placeOf(frame.url);
    const name = PSEUDO.has(frame.functionName)
      ? frame.functionName
      : `${frame.functionName || '(anonymous)'}  ${place}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
    const group = PSEUDO.has(frame.functionName) ? frame.functionName : groupOf(place);
    byGroup.set(group, (byGroup.get(group) ?? 0) + delta);
    if (!PSEUDO.has(frame.functionName)) byCaller.set(callerOf(id), (byCaller.get(callerOf(id)) ?? 0) + delta);
    total += delta;
  });
}

const line = (micros: number, name: string): string =>
  `${(micros / 1e6).toFixed(2).padStart(8)} s ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${name}`;
const table = (entries: Map<string, number>, count: number): string =>
  [...entries]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => line(micros, name))
    .join('\n');

console.log(`${files.length} profile(s), ${(total / 1e6).toFixed(2)} s busy (idle excluded)\n`);
console.log(`Self time by package or directory:\n${table(byGroup, 25)}\n`);
console.log(`Self time with node's own frames charged to their caller:\n${table(byCaller, 25)}\n`);
console.log(`Self time by function (top ${top}):\n${table(byFunction, top)}`);
