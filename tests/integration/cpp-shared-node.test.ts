/**
 * Issue #16, under the CLI: each C++ pool slot is a process of its own, so a compiled LLVM module
 * cannot pass from one to the next (the page hands on its Modules, tests/e2e/cpp-shared.test.ts),
 * but the bytes can: the first worker's support objects (exceptions.o, glibc-rand.o) and the
 * splice's precompiled header, posted before it ran any program, go to every later C++ process in
 * its `init` (runtimes/host/node.ts). A second worker then only compiles LLVM (lazily, about
 * 0.5 s) and unpacks the sysroot instead of compiling three files in a cold LLVM (about 6 s).
 * Two programs at once on a pool of two: the second worker starts when the first is ready. Both
 * programs' output must be g++'s (the second worker links the first one's objects), and the
 * second worker must load in well under the first's time (without sharing it takes as long or
 * longer, since the first worker is compiling beside it).
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
    const executor = createNodeExecutor({
      poolSize: 2,
      onStatus: (_language, message) => {
        if (/ ready, loaded in /.test(message)) ready.push(performance.now() - started);
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
      console.log(`cpp under Node: first worker loaded in ${Math.round(first)} ms, the second in ${Math.round(second)} ms`);
      expect(second).toBeLessThan(first / 2);
    } finally {
      await executor.dispose();
    }
  }, 300_000);
});
