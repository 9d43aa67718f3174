/**
 * The browser half of `npm run bench` (src/cli/bench.ts drives it in Chromium): times programs in
 * the app's own Web Worker runtimes, and draws the benchmark chart with Observable Plot.
 */
import * as Plot from '@observablehq/plot';
import { createBrowserExecutor } from '../../runtimes/host/browser';
import type { LanguageId } from '../contracts';

export interface BenchProgram {
  language: LanguageId;
  program: string;
}

export interface ChartRow {
  language: string;
  runner: string;
  ms: number;
}

const api = {
  /** From creating the executor (nothing loaded) to the first result of one program. */
  async coldStart(item: BenchProgram, timeoutMs: number) {
    const started = performance.now();
    const executor = createBrowserExecutor({ poolSize: 1 });
    const result = await executor.run({ ...item, timeoutMs });
    const ms = performance.now() - started;
    await executor.dispose();
    return { ms, exitCode: result.exitCode, runtime: result.runtime };
  },

  /**
   * Warm latency: one run at a time on a loaded worker (a first untimed round loads it), then
   * throughput: every program `rounds` times through a pool of `poolSize` workers.
   */
  async warm(items: BenchProgram[], rounds: number, poolSize: number, timeoutMs: number) {
    const executor = createBrowserExecutor({ poolSize });
    for (const item of items) await executor.run({ ...item, timeoutMs });
    const latencies: number[] = [];
    const failures: string[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const item of items) {
        const t = performance.now();
        const result = await executor.run({ ...item, timeoutMs });
        latencies.push(performance.now() - t);
        if (result.exitCode !== 0) failures.push(result.stderr.slice(0, 200));
      }
    }
    const queue = Array.from({ length: rounds }, () => items).flat();
    const t = performance.now();
    await Promise.all(queue.map((item) => executor.run({ ...item, timeoutMs })));
    const throughputSeconds = (performance.now() - t) / 1000;
    await executor.dispose();
    return { latencies, runsPerSecond: queue.length / throughputSeconds, failures };
  },

  /**
   * Two programs at once on a fresh pool of two workers: the pool starts the second worker when
   * the first is ready, so the gap between their `ready`s is what a later worker costs (for C++,
   * with the modules the first one compiled: runtimes/host/sandbox-frame.js).
   */
  async secondWorker(items: [BenchProgram, BenchProgram], timeoutMs: number) {
    const started = performance.now();
    const readyMs: number[] = [];
    const executor = createBrowserExecutor({
      poolSize: 2,
      onStatus: (_language, message) => {
        if (message.endsWith(' ready')) readyMs.push(performance.now() - started);
      },
    });
    const results = await Promise.all(items.map((item) => executor.run({ ...item, timeoutMs })));
    await executor.dispose();
    return { readyMs, results: results.map((r) => ({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr.slice(0, 500) })) };
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
    const host = document.getElementById('chart')!;
    host.replaceChildren(svg);
    svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    return host.innerHTML;
  },
};

(window as unknown as { benchtopBench: typeof api }).benchtopBench = api;
export type BenchApi = typeof api;
