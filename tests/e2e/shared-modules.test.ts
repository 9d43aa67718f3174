/**
 * Issue #16: a page compiles each runtime's WebAssembly once. The first Perl, PHP, Ruby and R
 * worker hands its compiled module to the runtime frame before it runs any program, and the
 * frame gives it to the language's later workers instead of the .wasm file
 * (runtimes/host/shared-module.ts, runtimes/host/sandbox-frame.js): a Module posted to a worker
 * shares its machine code, so the second worker starts on code the first has compiled and
 * optimised, and the page keeps one copy of it. (C++ has its own test: cpp-shared.test.ts.)
 *
 * Two programs at once on a pool of two: each runs for about 3 s, so the second worker loads
 * while the first runs. The second worker must say it loads from the first one's compiled code
 * (it has no .wasm file to compile: the frame withheld it), and both programs must print what
 * the language's native interpreter prints for them.
 */
import { describe, expect, it } from 'vitest';
import type { BenchApi } from '../../src/bench/page';
import { useChromium } from '../support/e2e';

/** Busy for about three seconds, then one line; native output: `done`. */
const PROGRAMS = {
  perl: 'my $t = time; 1 while time - $t < 3; print "done\\n";\n',
  php: '<?php $t = time(); while (time() - $t < 3) {} echo "done\\n";\n',
  ruby: 't = Time.now; nil while Time.now - t < 3; puts "done"\n',
  r: 't <- Sys.time(); while (difftime(Sys.time(), t, units = "secs") < 3) {}; cat("done\\n")\n',
} as const;

describe('compiled runtime modules in the page', () => {
  const chromium = useChromium();

  for (const [language, program] of Object.entries(PROGRAMS)) {
    it(`a second ${language} worker loads from the first one's compiled module and runs correctly`, async () => {
      const { page } = await chromium.openApp({ path: '/bench.html' });
      const bench = await page.evaluateHandle(() => (window as unknown as { benchtopBench: BenchApi }).benchtopBench);
      const items = [{ language, program }, { language, program }] as Parameters<BenchApi['secondWorker']>[0];
      const { readyMs, statuses, results } = await bench.evaluate((b, list) => b.secondWorker(list, 60_000), items);
      console.log(`${language}: first worker ready after ${Math.round(readyMs[0]!)} ms, the second ${Math.round(readyMs[1]! - readyMs[0]!)} ms later`);
      expect(results.map((r) => [r.exitCode, r.stdout, r.timedOut])).toEqual([[0, 'done\n', false], [0, 'done\n', false]]);
      expect(readyMs).toHaveLength(2);
      const loading = statuses.filter((s) => s.startsWith('loading '));
      expect(loading, statuses.join('\n')).toHaveLength(2);
      expect(loading[0]).not.toContain('compiled code from the first worker');
      expect(loading[1]).toContain('(compiled code from the first worker)');
      await page.close();
    }, 120_000);
  }
});
