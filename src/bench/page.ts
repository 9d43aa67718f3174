/**
 * The browser half of `npm run bench` (src/cli/bench.ts drives it in Chromium): times programs in
 * the app's own Web Worker runtimes, and draws the benchmark chart with Observable Plot.
 */
import * as Plot from '@observablehq/plot';
import { cacheRuntimeFiles, createBrowserExecutor } from '../../runtimes/host/browser';
import type { RunResult } from '../contracts';
import { FIRST_PROGRAM_COLOR, OTHER_COLOR, STEPS, type StartStepRow } from './first-result';
import { loadPool, throughput, timedRound, type BenchProgram } from './rounds';
import { ratioText } from './ratio-text';

export type { BenchProgram } from './rounds';

export interface ChartRow {
  language: string;
  runner: string;
  ms: number;
}

/** A language's warm-run speedup over its native process (native median ÷ Chromium median). */
export interface RatioRow {
  language: string;
  ratio: number;
}

/** The pools warmOpen loaded, by the number it returned. */
const warmPools = new Map<number, ReturnType<typeof createBrowserExecutor>>();
let lastWarmPool = 0;

const api = {
  /**
   * From creating the executor (nothing loaded) to the first result of one program, the runtime's
   * files already in the browser's cache, as on a second visit (the first visit's download depends
   * on the network, not on us).
   */
  async coldStart(item: BenchProgram, timeoutMs: number) {
    await cacheRuntimeFiles(item.language);
    const started = performance.now();
    const executor = createBrowserExecutor({ poolSize: 1 });
    const result = await executor.run({ ...item, timeoutMs });
    const ms = performance.now() - started;
    const load = executor.lastLoad(item.language);
    await executor.dispose();
    return { ms, load, exitCode: result.exitCode, runtime: result.runtime };
  },

  /**
   * A pool loaded by one untimed run of each program and kept between calls, so that the bench
   * can alternate its timed rounds with the native ones (src/cli/bench.ts): a change of load on
   * the machine then falls on both sides alike.
   */
  async warmOpen(items: BenchProgram[], poolSize: number, timeoutMs: number): Promise<number> {
    warmPools.set(++lastWarmPool, await loadPool(createBrowserExecutor({ poolSize }), items, timeoutMs));
    return lastWarmPool;
  },

  /** Warm latency, one round: each program once, one at a time on the loaded pool. */
  async warmRound(pool: number, items: BenchProgram[], timeoutMs: number) {
    const executor = warmPools.get(pool)!;
    const { ms, results } = await timedRound(items, (item) => executor.run({ ...item, timeoutMs }));
    return { latencies: ms, failures: results.filter((r) => r.exitCode !== 0).map((r) => r.stderr.slice(0, 200)) };
  },

  /** Throughput: every program `rounds` times through the pool at once; then the pool is closed. */
  async warmClose(pool: number, items: BenchProgram[], rounds: number, timeoutMs: number) {
    const executor = warmPools.get(pool)!;
    warmPools.delete(pool);
    return { runsPerSecond: await throughput(executor, items, rounds, timeoutMs) };
  },

  /**
   * Two programs at once on a fresh pool of two workers: the pool starts the second worker when
   * the first is ready, so the gap between their `ready`s is what a later worker costs (for C++,
   * with the modules the first one compiled: runtimes/host/sandbox-frame.js), and every status line
   * the workers sent.
   */
  async secondWorker(items: [BenchProgram, BenchProgram], timeoutMs: number, then?: { item: BenchProgram; timeoutMs: number }) {
    const started = performance.now();
    const readyMs: number[] = [];
    const statuses: string[] = [];
    const executor = createBrowserExecutor({
      poolSize: 2,
      onStatus: (_language, message) => {
        statuses.push(message);
        if (/ ready, loaded in /.test(message)) readyMs.push(performance.now() - started);
      },
    });
    const results = await Promise.all(items.map((item) => executor.run({ ...item, timeoutMs })));
    // One more program on the same (loaded) pool, e.g. one that reaches its time limit.
    const last = then && (await executor.run({ ...then.item, timeoutMs: then.timeoutMs }));
    await executor.dispose();
    const summary = (r: RunResult) => ({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr.slice(0, 500), timedOut: r.timedOut, compileTimedOut: r.compileTimedOut === true });
    return { readyMs, statuses, results: results.map(summary), ...(last ? { then: summary(last) } : {}) };
  },

  /** The side-by-side chart: median milliseconds per run, benchtop vs a native process. */
  chart(rows: ChartRow[]): string {
    const svg = Plot.plot({
      title: 'Median time per test run (ms, log scale): benchtop warm worker vs a new native process',
      width: 1040,
      height: 340,
      marginLeft: 60,
      marginBottom: 50,
      x: { axis: null },
      fx: { label: null },
      // Log scale: bars start at 1 ms (a log axis has no zero).
      y: { type: 'log', label: 'ms per run', grid: true, domain: [1, Math.max(...rows.map((r) => r.ms)) * 2] },
      color: { legend: true, domain: ['benchtop (Chromium)', 'benchtop (Node)', 'native process'] },
      marks: [
        Plot.barY(rows, { fx: 'language', x: 'runner', y1: 1, y2: 'ms', fill: 'runner' }),
        Plot.text(rows, { fx: 'language', x: 'runner', y: 'ms', text: (d: ChartRow) => d.ms.toFixed(d.ms < 10 ? 1 : 0), dy: -6 }),
      ],
    });
    return place('chart', svg);
  },

  /**
   * Each language's ratio, one bar each on a log axis that puts slower and faster than native on
   * either side of 1×, with the two targets drawn in: 1× (no language slower than its native
   * process) and 10× (the geometric mean). `geomean` is drawn as a line of its own.
   */
  ratioChart(rows: RatioRow[], geomean: number): string {
    const away = (right: boolean) => (right ? { textAnchor: 'start' as const, dx: 4 } : { textAnchor: 'end' as const, dx: -4 });
    const sorted = [...rows].sort((a, b) => b.ratio - a.ratio);
    const ratios = sorted.map((r) => r.ratio);
    const domain = [Math.min(0.25, ...ratios) / 1.5, Math.max(20, ...ratios) * 1.5];
    const fill = (d: RatioRow) => (d.ratio >= 1 ? 'faster than native' : 'slower than native');
    const label = (d: RatioRow) => ratioText(d.ratio);
    const svg = Plot.plot({
      title: 'Speedup per language over a new native process (warm run in Chromium, log scale)',
      width: 1040,
      height: 80 + 34 * sorted.length,
      marginTop: 24,
      marginLeft: 110,
      marginRight: 60,
      x: { type: 'log', label: 'native median ÷ benchtop median', grid: true, domain, ticks: [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100].filter((t) => t >= domain[0]! && t <= domain[1]!), tickFormat: (t: number) => `${t}×` },
      y: { label: null, domain: sorted.map((r) => r.language) },
      color: { legend: true, domain: ['faster than native', 'slower than native'], range: ['#4269d0', '#ff725c'] },
      marks: [
        // Bars grow from 1× (a log axis has no zero): right is faster, left slower.
        Plot.barX(sorted, { y: 'language', x1: 1, x2: 'ratio', fill }),
        // The label past the bar's end: right of a bar that goes right, left of one that goes left.
        Plot.text(sorted.filter((d) => d.ratio >= 1), { y: 'language', x: 'ratio', text: label, textAnchor: 'start', dx: 4 }),
        Plot.text(sorted.filter((d) => d.ratio < 1), { y: 'language', x: 'ratio', text: label, textAnchor: 'end', dx: -4 }),
        Plot.ruleX([1], { stroke: 'black' }),
        Plot.ruleX([10], { stroke: '#3ca951', strokeDasharray: '6 4' }),
        // The two labels point away from each other: the larger value's to the right of its line.
        Plot.text([10], { x: (d: number) => d, frameAnchor: 'top', dy: -4, text: () => 'target 10× (geometric mean)', fill: '#3ca951', ...away(geomean <= 10) }),
        Plot.ruleX([geomean], { stroke: '#6b6b6b', strokeDasharray: '2 3' }),
        Plot.text([geomean], { x: (d: number) => d, frameAnchor: 'top', dy: -4, text: () => `geometric mean ${geomean.toFixed(1)}×`, fill: '#6b6b6b', ...away(geomean > 10) }),
      ],
    });
    return place('ratio-chart', svg);
  },

  /**
   * Where each language's first result goes in Chromium: one bar per language, its cold start's
   * steps stacked in order (the worker's start step by step, then the first program), so the
   * longest step of each is what the eye finds.
   */
  firstResultChart(rows: StartStepRow[]): string {
    const languages = [...new Set(rows.map((r) => r.language))];
    const total = (language: string) => rows.filter((r) => r.language === language).reduce((a, r) => a + r.ms, 0);
    languages.sort((a, b) => total(b) - total(a));
    // The legend in the order a start goes (STEPS, then other and the first program), steps it does not know last.
    const known = Object.keys(STEP_COLORS);
    const rank = (step: string) => (known.includes(step) ? known.indexOf(step) : known.length);
    const steps = [...new Set(rows.map((r) => r.step))].sort((a, b) => rank(a) - rank(b));
    const svg = Plot.plot({
      title: "Where a first result goes in Chromium (a cold start, the runtime's files cached; seconds)",
      width: 1040,
      height: 110 + 30 * languages.length,
      marginLeft: 110,
      marginRight: 60,
      x: { label: 'seconds from the request to the first result', grid: true },
      y: { label: null, domain: languages },
      color: { legend: true, domain: steps, range: steps.map(stepColor) },
      marks: [
        // Stacked in the order the steps happened (Plot stacks in input order).
        Plot.barX(rows, { y: 'language', x: (d: StartStepRow) => d.ms / 1000, fill: 'step', title: (d: StartStepRow) => `${d.language}: ${d.step} ${(d.ms / 1000).toFixed(2)} s` }),
        Plot.text(languages, { y: (d: string) => d, x: (d: string) => total(d) / 1000, text: (d: string) => `${(total(d) / 1000).toFixed(1)} s`, textAnchor: 'start', dx: 4 }),
      ],
    });
    return place('first-chart', svg);
  },
};

/** A step's colour in the chart (first-result.ts STEPS). */
const STEP_COLORS: Record<string, string> = {
  ...Object.fromEntries(STEPS.map((step) => [step.name, step.color])),
  other: OTHER_COLOR,
  'first program': FIRST_PROGRAM_COLOR,
};
const stepColor = (step: string) => STEP_COLORS[step] ?? '#b07aa1';

/** Puts a chart into its element of bench.html (so it can be screenshotted) and returns its SVG text. */
function place(id: string, svg: SVGSVGElement | HTMLElement): string {
  const host = document.getElementById(id)!;
  host.replaceChildren(svg);
  // A titled plot is a <figure> around the <svg>: the namespace goes on the svg itself.
  (svg.tagName.toLowerCase() === 'svg' ? svg : svg.querySelector('svg'))?.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  return host.innerHTML;
}

(window as unknown as { benchtopBench: typeof api }).benchtopBench = api;
export type BenchApi = typeof api;
