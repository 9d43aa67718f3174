/**
 * The warm bench's steps, one definition for the page's pools (src/bench/page.ts, in Chromium),
 * Node's pools and native processes (src/cli/bench.ts): load a pool, time a round, time a pool's
 * throughput.
 */
import type { Executor, LanguageId } from '../contracts';

export interface BenchProgram {
  language: LanguageId;
  program: string;
}

/** Loads `executor`'s pool: one untimed run of each program. */
export async function loadPool<E extends Executor>(executor: E, items: readonly BenchProgram[], timeoutMs: number): Promise<E> {
  for (const item of items) await executor.run({ ...item, timeoutMs });
  return executor;
}

/** One timed round: each program once, one at a time, from the request to the result. */
export async function timedRound<R>(items: readonly BenchProgram[], run: (item: BenchProgram) => Promise<R>): Promise<{ ms: number[]; results: R[] }> {
  const ms: number[] = [];
  const results: R[] = [];
  for (const item of items) {
    const t = performance.now();
    results.push(await run(item));
    ms.push(performance.now() - t);
  }
  return { ms, results };
}

/** Runs per second with every program `rounds` times through the pool at once; then the pool is closed. */
export async function throughput(executor: Executor, items: readonly BenchProgram[], rounds: number, timeoutMs: number): Promise<number> {
  const queue = Array.from({ length: rounds }, () => items).flat();
  const t = performance.now();
  await Promise.all(queue.map((item) => executor.run({ ...item, timeoutMs })));
  const seconds = (performance.now() - t) / 1000;
  await executor.dispose();
  return queue.length / seconds;
}
