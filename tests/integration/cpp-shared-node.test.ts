/**
 * Issue #16, under the CLI: each C++ pool slot is a process of its own, so a compiled LLVM module
 * cannot pass from one to the next (the page hands on its Modules, tests/e2e/cpp-shared.test.ts),
 * but the bytes can: the first worker's precompiled header of the splice's two lines and the
 * driver's command lines, posted before it ran any program, go to every later C++ process in its
 * `init` (runtimes/host/node.ts). (The two support objects come prebuilt to both:
 * runtimes/cpp/support-objects.ts.) Two programs at once on a pool of two: the second worker
 * starts when the first is ready. Both programs' output must be g++'s, the second worker must
 * not build the PCH again (its "precompiled header" step, seconds in the first, a lookup in the
 * second), and it must load in less time than the first.
 */
import { describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { exceptionsProgram as program } from '../support/cpp-exceptions-program';
import { createGxx } from '../support/gxx';

describe('C++ under the CLI', () => {
  it('a second C++ worker process gets what the first built while loading, and both agree with g++', async () => {
    const programs = [program(100), program(1000)];
    const gxx = createGxx();
    const expected = await Promise.all(programs.map((p) => gxx.run(p)));
    await gxx.dispose();
    const started = performance.now();
    const ready: number[] = [];
    const loading: number[] = [];
    const readyLines: string[] = [];
    const executor = createNodeExecutor({
      poolSize: 2,
      onStatus: (_language, message) => {
        if (/ ready, loaded in /.test(message)) {
          ready.push(performance.now() - started);
          readyLines.push(message);
        }
        else if (message.startsWith('loading ')) loading.push(performance.now() - started);
      },
    });
    try {
      const results = await Promise.all(programs.map((p) => executor.run({ language: 'cpp', program: p, timeoutMs: 60_000 })));
      expect(results.map((r) => [r.exitCode, r.stdout])).toEqual(expected.map((r) => [r.exitCode, r.stdout]));
      // Both programs may finish on the first worker before the second is ready: wait for it.
      for (let waited = 0; ready.length < 2 && waited < 60_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
      expect(ready).toHaveLength(2);
      expect(loading).toHaveLength(2);
      const first = ready[0]! - loading[0]!;
      const second = ready[1]! - loading[1]!;
      const pchStep = /precompiled header ([\d.]+) s/.exec(readyLines[0]!);
      const secondPchMs = executor.lastLoad('cpp')!.steps.find(([name]) => name === 'precompiled header')?.[1] ?? 0;
      console.log(`cpp under Node: first worker loaded in ${Math.round(first)} ms (${readyLines[0]}), the second in ${Math.round(second)} ms (precompiled header ${Math.round(secondPchMs)} ms)`);
      expect(pchStep, 'the first worker builds the splice\'s PCH').not.toBeNull();
      expect(secondPchMs).toBeLessThan((Number(pchStep![1]) * 1000) / 4);
      expect(second).toBeLessThan(first);
    } finally {
      await executor.dispose();
    }
  }, 300_000);
});
