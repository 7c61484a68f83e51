/**
 * The long tasks of a Chromium trace (a page's main thread), and what each spent its time on:
 *   node --import tsx bench/lib/trace-summary.ts <file.trace.json> [longer-than-ms=50] [file.cpuprofile]
 * For each task over the bound on a renderer's main thread (CrRendererMain): its start (ms
 * from the trace's first event), length, and the events inside it with the most time of their
 * own (script evaluation, compilation, a function's call with its file, GC, WebGL calls...),
 * and with the page's CPU profile, the functions sampled most in it.
 * bench/viewer.ts writes such traces with BENCH_PROFILE=folder.
 */
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

/** An event's label: a script's or a call's file and function where the trace gives them. */
function labelOf(event: TraceEvent): string {
  const data = event.args?.data ?? {};
  const where = [data.url, data.functionName, data.lineNumber]
    .filter((part) => part !== undefined && part !== '')
    .map((part) => String(part).replace(/^https?:\/\/[^/]+/, ''));
  return where.length > 0 ? `${event.name} ${where.join(':')}` : event.name;
}

/** Each long task of the main threads in `events`, with its events' own time by label. */
export function longTasksOf(events: TraceEvent[], longerThanMs = 50) {
  const mainThreads = new Set(
    events
      .filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const origin = Math.min(...events.filter((event) => event.ts > 0).map((event) => event.ts));
  const complete = events
    .filter((event) => event.ph === 'X' && event.dur !== undefined && mainThreads.has(`${event.pid}:${event.tid}`))
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const tasks = complete.filter((event) => event.name === 'RunTask' && event.dur! > longerThanMs * 1000);
  return tasks.map((task) => {
    const end = task.ts + task.dur!;
    const inside = complete.filter(
      (event) =>
        event !== task &&
        event.tid === task.tid &&
        event.pid === task.pid &&
        event.ts >= task.ts &&
        event.ts + event.dur! <= end,
    );
    // An event's own time: its length less that of the events directly inside it.
    const own = new Map<TraceEvent, number>();
    const stack: TraceEvent[] = [];
    for (const event of inside) {
      while (stack.length > 0 && stack.at(-1)!.ts + stack.at(-1)!.dur! <= event.ts) stack.pop();
      own.set(event, event.dur!);
      const parent = stack.at(-1);
      if (parent) own.set(parent, own.get(parent)! - event.dur!);
      stack.push(event);
    }
    const byLabel = new Map<string, number>();
    for (const [event, time] of own) byLabel.set(labelOf(event), (byLabel.get(labelOf(event)) ?? 0) + time);
    return {
      ts: task.ts,
      startMs: (task.ts - origin) / 1000,
      durationMs: task.dur! / 1000,
      top: [...byLabel].sort((a, b) => b[1] - a[1]).map(([label, time]) => ({ label, ms: time / 1000 })),
    };
  });
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** The functions with the most samples of their own between `from` and `to` (trace microseconds), with their caller. */
function jsBetween(profile: CpuProfile, from: number, to: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const name = (id: number | undefined) => {
    const frame = id === undefined ? undefined : byId.get(id)?.callFrame;
    return frame ? `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}` : '';
  };
  const own = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index]!;
    if (at < from || at > to) return;
    const key = `${name(id)}  < ${name(parentOf.get(id))}`;
    own.set(key, (own.get(key) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000);
  });
  return [...own].sort((a, b) => b[1] - a[1]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, longerThan = '50', profileFile] = process.argv.slice(2);
  const trace = JSON.parse(readFileSync(file!, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const profile = profileFile ? (JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile) : undefined;
  for (const task of longTasksOf(events, Number(longerThan))) {
    console.log(`task at ${task.startMs.toFixed(0)} ms: ${task.durationMs.toFixed(0)} ms`);
    for (const { label, ms } of task.top.slice(0, 8))
      console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${label.slice(0, 150)}`);
    if (!profile) continue;
    // The page's JavaScript in it (bench/viewer.ts's .cpuprofile of the same page, on the trace's clock).
    for (const [label, ms] of jsBetween(profile, task.ts, task.ts + task.durationMs * 1000).slice(0, 6)) {
      console.log(`  ${ms.toFixed(1).padStart(7)} ms  js: ${label.slice(0, 160)}`);
    }
  }
}
