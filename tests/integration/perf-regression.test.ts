/**
 * Performance regression check (a ratio, not an absolute time): warm in-worker runs of the demo
 * set's canonical programs must stay at least 5× faster than a new native process per program,
 * the way the official sandbox runs them. Both sides are timed here, on the same machine state.
 * The full side-by-side figures come from `npm run bench` (docs/bench.md).
 */
import { readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { runNative } from '../../runtimes/native/process';
import type { LanguageId } from '../../src/core/languages';
import { parseDataset } from '../../src/core/records';
import { spliceProgram } from '../../src/core/rules';

const MIN_SPEEDUP = 5;
const executor = createNodeExecutor({ poolSize: 1 });
afterAll(() => executor.dispose());
const problems = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

it(`warm runs stay ≥ ${MIN_SPEEDUP}× faster than native process-per-test (geometric mean over Python, JavaScript, TypeScript)`, async () => {
  const ratios: Record<string, number> = {};
  for (const language of ['python', 'javascript', 'typescript'] as LanguageId[]) {
    const programs = problems
      .filter((p) => p.language === language)
      .map((p) => spliceProgram(language, p.record.canonical_solution, p.record.demo_test_func));
    await executor.run({ language, program: programs[0]!, timeoutMs: 30_000 }); // load the runtime
    const warm: number[] = [];
    const native: number[] = [];
    // Interleaved, so a burst of load elsewhere on the machine hits both sides alike.
    for (const program of programs) {
      let t = performance.now();
      expect((await executor.run({ language, program, timeoutMs: 30_000 })).exitCode).toBe(0);
      warm.push(performance.now() - t);
      t = performance.now();
      expect((await runNative({ language, program, timeoutMs: 30_000 })).exitCode).toBe(0);
      native.push(performance.now() - t);
    }
    ratios[language] = median(native) / median(warm);
  }
  const values = Object.values(ratios);
  const geomean = Math.exp(values.reduce((a, r) => a + Math.log(r), 0) / values.length);
  console.log(`speedup vs native per language: ${JSON.stringify(ratios)}; geometric mean ${geomean.toFixed(1)}×`);
  expect(geomean).toBeGreaterThanOrEqual(MIN_SPEEDUP);
});
