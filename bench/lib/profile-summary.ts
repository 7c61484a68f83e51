/**
 * Top self-time functions of a V8 CPU profile (`node --cpu-prof`; the benchmarks pass flags
 * to the portal through PORTAL_NODE_OPTIONS):  node --import tsx bench/lib/profile-summary.ts <file.cpuprofile> [top] [from]
 * With `from` (a function name, e.g. `account`, which hashes each uploaded chunk), only the
 * samples from the first one with that function on its stack count: start-up is left out.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file, top = '25', from] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const hasOnStack = (id: number | undefined, name: string): boolean =>
  id !== undefined && (byId.get(id)!.callFrame.functionName === name || hasOnStack(parentOf.get(id), name));
const first = from ? profile.samples.findIndex((id) => hasOnStack(id, from)) : 0;
if (first < 0) throw new Error(`no sample has ${from} on its stack`);
const samples = profile.samples.slice(first);
const selfSamples = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const id of samples) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(apps|packages)\//, '$1/');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  selfSamples.set(key, (selfSamples.get(key) ?? 0) + 1);
  const pkg = url.includes('node_modules/')
    ? /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)![1]!
    : url.startsWith('file://')
      ? 'portal source'
      : url.startsWith('node:')
        ? 'node internals'
        : functionName || '(native)';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
}
const total = samples.length;
const print = (title: string, counts: Map<string, number>) => {
  console.log(`\n${title} (${total} samples)`);
  for (const [key, count] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
    console.log(`  ${((count / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
};
print('Self time by package', byPackage);
print('Self time by function', selfSamples);
