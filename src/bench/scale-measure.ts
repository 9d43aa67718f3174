/**
 * Measuring tools of the scale run (src/cli/bench-scale.ts): resident memory of a process tree
 * read from /proc (Linux), the figures of one way of running a dataset, and runner processes
 * started the way an operator starts them (`node dist-node/runner.mjs`, one process each).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { LoadRange, ProblemOutcome } from './scale-problems';

const PAGE = 4096;

/** Every process's parent pid and command line, from /proc. */
function processTable(): Array<{ pid: number; ppid: number; cmdline: string; rss: number }> {
  const rows = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name in field 2 may hold spaces and parentheses: fields start after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const rss = Number(readFileSync(`/proc/${name}/statm`, 'utf8').split(' ')[1]) * PAGE;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      rows.push({ pid: Number(name), ppid: Number(fields[1]), cmdline, rss });
    } catch {
      // gone while we read it
    }
  }
  return rows;
}

/**
 * Resident bytes of the processes below `roots` (and of the roots when `withRoots`), optionally
 * only those whose command line matches `only` (e.g. Chromium's renderers).
 */
export function treeRss(roots: readonly number[], options: { withRoots?: boolean; only?: RegExp } = {}): number {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const inTree = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const pid = stack.pop()!;
    for (const child of children.get(pid) ?? []) if (!inTree.has(child)) (inTree.add(child), stack.push(child));
  }
  if (options.withRoots) for (const r of roots) inTree.add(r);
  return table.filter((p) => inTree.has(p.pid) && (!options.only || options.only.test(p.cmdline))).reduce((a, p) => a + p.rss, 0);
}

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const i = (s.length - 1) * q;
  return s[Math.floor(i)]! + (s[Math.ceil(i)]! - s[Math.floor(i)]!) * (i - Math.floor(i));
}

/** A memory sample: milliseconds since the start of the way's run, and bytes. */
export interface MemorySample { at: number; bytes: number }

/** The mean of the samples in each quarter of the run's time (NaN for a quarter without one). */
export function quarterMeans(samples: readonly MemorySample[]): number[] {
  const end = samples.at(-1)?.at ?? 0;
  return [0, 1, 2, 3].map((q) => {
    const w = samples.filter((s) => s.at >= (end * q) / 4 && s.at <= (end * (q + 1)) / 4);
    return w.length ? w.reduce((a, s) => a + s.bytes, 0) / w.length : NaN;
  });
}

/** The last quarter's mean over the first's, less one (the flatness target compares the two). */
export function growth(samples: readonly MemorySample[]): number {
  if (samples.length < 4) return NaN;
  const q = quarterMeans(samples);
  return q[3]! / q[0]! - 1;
}

/**
 * The last quarter's mean over the second's, less one: the same comparison without the first
 * quarter, in which the runtimes start (a pool's later workers start there too, when the work pays).
 */
export function growthAfterStart(quarters: readonly number[]): number {
  return quarters.length === 4 ? quarters[3]! / quarters[1]! - 1 : NaN;
}

/** What one way of running the dataset measured. */
export interface WayFigures {
  name: string;
  problems: number;
  passed: number;
  /** Every problem's outcome, in the order of the results. */
  outcomes: ProblemOutcome[];
  /** The load average while this way ran. */
  load: LoadRange;
  wallMs: number;
  firstResultMs: number;
  /** Per problem: from its start to its verdict (demo and full tests), as the engine records it. */
  perProblemMs: number[];
  /** Peak resident memory of the way's processes (bytes). */
  peakRss: number;
  /** What peakRss covers. */
  rssWhat: string;
  rssGrowth: number;
  /** The mean memory in each quarter of the run (a rise that levels off is start-up; one that keeps on is a leak). */
  rssQuarters: number[];
  /** In-page only: the page's JS heap. */
  peakHeap?: number;
  heapGrowth?: number;
  /** In-page only: the page's JS heap by quarter (what it holds grows with the results kept). */
  heapQuarters?: number[];
  /** In-page only: click-to-next-frame latencies on a view tab during the run. */
  clickMs?: number[];
  /** In-page only: the clicks over 200 ms, when in the run and how far it had got (a summary line). */
  slowClicks?: string;
  /** In-page only: what the page's long animation frames spent their time on (a summary line). */
  longFrames?: string;
}

export interface RunnerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node dist-node/runner.mjs` on a free 127.0.0.1 port (sandboxed: it refuses to start
 * without an isolation) and waits until its toolchain probes are done (GET /health says ok).
 * `index` gives each process its own uid range, so that no two share sandbox uids.
 */
export async function startRunnerProcess(index: number, maxConcurrency: number): Promise<RunnerProcess> {
  const child = spawn(process.execPath, ['dist-node/runner.mjs', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, MAX_CONCURRENCY: String(maxConcurrency), RUNNER_UID_BASE: String(61000 + 1000 * index), RUNNER_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => { errors = (errors + d.toString()).slice(-2000); });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`runner process exited (${code}) before listening: ${errors}`)));
  });
  child.stdout!.resume();
  const deadline = Date.now() + 300_000;
  for (;;) {
    const health = await fetch(`${url}/health`).then((r) => r.json() as Promise<{ status: string }>).catch(() => null);
    if (health?.status === 'ok') break;
    if (Date.now() > deadline) throw new Error(`runner ${url} not ready after 300 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return { url, child, stop };
}

/** A long animation frame of the page (PerformanceLongAnimationFrameTiming, reduced to what we read). */
export interface LongFrame {
  /** From the page's time origin, as the click times. */
  startTime: number;
  duration: number;
  /** Style, layout and paint of the frame (its render phase). */
  renderMs: number;
  scripts: Array<{ what: string; duration: number }>;
}

/**
 * What blocked the page's main thread: how many long frames (over 50 ms), their total and longest,
 * and the scripts (by invoker and source) and rendering that took most of that time.
 */
export function summarizeLongFrames(all: readonly LongFrame[], from = -Infinity): string {
  // Frames over before the run started are the dataset's load (in the bench, the harness's own
  // upload of the file: a 1.6 s frame of Playwright's script), not the run's.
  const frames = all.filter((f) => f.startTime + f.duration >= from);
  if (!frames.length) return 'no long animation frames';
  const by = new Map<string, number>();
  let render = 0;
  for (const f of frames) {
    render += f.renderMs;
    for (const s of f.scripts) by.set(s.what, (by.get(s.what) ?? 0) + s.duration);
  }
  const total = frames.reduce((a, f) => a + f.duration, 0);
  const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([what, ms]) => `${what} ${ms.toFixed(0)} ms`);
  return `${frames.length} long frames, ${total.toFixed(0)} ms in all, longest ${Math.max(...frames.map((f) => f.duration)).toFixed(0)} ms; rendering ${render.toFixed(0)} ms; scripts: ${top.join(', ') || 'none attributed'}`;
}

/**
 * The clicks answered in over 200 ms, each with when it came (from the run's start) and how many
 * problems were done by then: start-up (runtimes loading) and the steady run have different causes.
 */
export function slowClicks(latencies: readonly number[], at: readonly number[], done: ReadonlyArray<readonly [number, number]>, frames: readonly LongFrame[] = [], origin = 0): string {
  const slow = latencies.map((ms, i) => ({ ms, at: at[i]! })).filter((c) => c.ms > 200);
  if (!slow.length) return 'none';
  const doneBy = (t: number) => done.filter(([when]) => when <= t).at(-1)?.[1] ?? 0;
  // The long frames the click waited through (they overlap its wait), with what they ran.
  const during = (c: { ms: number; at: number }) => {
    const t0 = origin + c.at;
    const hit = frames.filter((f) => f.startTime < t0 + c.ms && f.startTime + f.duration > t0);
    if (!hit.length) return '';
    const scripts = hit.flatMap((f) => f.scripts).sort((a, b) => b.duration - a.duration).slice(0, 2);
    const own = scripts.map((s) => `${s.what} ${s.duration.toFixed(0)} ms`).join(', ');
    return `; frames ${hit.map((f) => f.duration.toFixed(0)).join('+')} ms, rendering ${hit.reduce((a, f) => a + f.renderMs, 0).toFixed(0)} ms${own ? `, ${own}` : ''}`;
  };
  const list = slow.slice(0, 12).map((c) => `${c.ms.toFixed(0)} ms at ${(c.at / 1000).toFixed(1)} s (${doneBy(c.at)} done${during(c)})`);
  return `${slow.length} of ${latencies.length}: ${list.join(', ')}${slow.length > 12 ? ', …' : ''}`;
}
