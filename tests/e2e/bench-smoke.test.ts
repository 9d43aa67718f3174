/**
 * `npm run bench` must not break unnoticed (issue #16 §0: it once measured everything and then died
 * on a renamed runtime file before printing its report). This runs the real bench end to end on
 * its smallest setting (two languages, one warming and one timed round, a short soak) into a temporary folder, and checks
 * that it printed its documented last line and wrote a report with a row for exactly the languages
 * chosen by BENCH_LANGUAGES, each naming the real native binary it ran. It asserts
 * no speed: the figures themselves come from the full `npm run bench` (docs/bench.md).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'benchtop-bench-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('npm run bench finishes on its smallest setting and prints its report', async () => {
  expect(existsSync(join(root, 'dist/bench.html')), 'run `npm run build` first').toBe(true);
  const { stdout } = await promisify(execFile)(process.execPath, ['dist-node/bench.mjs'], {
    cwd: root,
    // Python (Pyodide) and Shell: a heavy and a light runtime, two different native commands.
    env: { ...process.env, BENCH_ROUNDS: '1', BENCH_WARMUP: '1', BENCH_SOAK: '40', BENCH_OUT: out, BENCH_LANGUAGES: 'python,shell' },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 600_000,
  });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  expect(last).toMatch(/^speedup vs native process-per-test \(geometric mean over languages\): \d+(\.\d+)?x$/);
  const report = readFileSync(join(out, 'bench.md'), 'utf8');
  const rows = [...report.matchAll(/^\| (\w+) \| \d+ \| `([^`]+)` \|/gm)].map((m) => [m[1], m[2]]);
  expect(rows.map(([language]) => language)).toEqual(['Python', 'Shell']);
  // The native side names an absolute path to a real binary and its version, never a bare name.
  for (const [, command] of rows) expect(command).toMatch(/^\/\S+ \(.*\d+\.\d+.*\)$/);
  expect(report).toContain('(geometric mean over Python, Shell)');
  expect(report).toContain("each language's rounds alternate native, Chromium and Node");
  // The warming rounds (BENCH_WARMUP) are run and shown beside the timed ones, not dropped.
  expect(report).toContain('1 timed rounds (after 1 warming rounds)');
  const header = /^\| language \|.*$/m.exec(report)![0].split('|').map((c) => c.trim());
  expect(header[8]).toBe('while warming: Chromium / Node median (ms)');
  for (const language of ['Python', 'Shell']) {
    const cells = new RegExp(`^\\| ${language} \\|.*$`, 'm').exec(report)![0].split('|').map((c) => c.trim());
    expect(cells[8], `${language}'s warming medians`).toMatch(/^\d+(\.\d+)? \/ \d+(\.\d+)?$/);
  }
  // The host's process-start reference, before and after the rounds: a bare /bin/true costs less
  // than bash running a test program, which pays the same start and then its own work.
  const reference = /Host reference: .* took (\d+(?:\.\d+)?) ms before the rounds and (\d+(?:\.\d+)?) ms after them/.exec(report);
  expect(reference, 'the host reference line').not.toBeNull();
  const shellNative = Number(/^\| Shell \| \d+ \| `[^`]+` \| (\d+(?:\.\d+)?) \//m.exec(report)![1]);
  for (const ms of [Number(reference![1]), Number(reference![2])]) {
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThan(shellNative);
  }
  // Python's first result, Run pressed at once and 5 s after the page is ready: the page's head
  // start (warmAhead) makes the second shorter; both are real times.
  const first = /first result in Chromium .*? \| (\d+(?:\.\d+)?) ms with Run pressed as soon as the page is ready; (\d+(?:\.\d+)?) ms with Run pressed 5 s after \|/.exec(report);
  expect(first, 'the first-result row').not.toBeNull();
  expect(Number(first![2])).toBeGreaterThan(0);
  expect(Number(first![2])).toBeLessThan(Number(first![1]));
  // What a first result costs: each language's cold start split into the worker's start, its
  // loader's steps (timed inside the worker, in Chromium and under Node) and the first program.
  const costs = report.slice(report.indexOf('## What a first result costs'));
  for (const [language, chromiumSteps] of [['Python', /worker \d+, files \d+, script \d+, start \d+, harness \d+, gc \d+, snapshot \d+/], ['Shell', /^worker \d+/]] as const) {
    const row = new RegExp(`^\\| ${language} \\| (\\d+) \\| (\\d+) \\| (-?\\d+) \\| ([^|]*) \\| (\\d+) \\| ([^|]*) \\|$`, 'm').exec(costs);
    expect(row, `${language}'s first-result row`).not.toBeNull();
    const [total, start, program] = [Number(row![1]), Number(row![2]), Number(row![3])];
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThanOrEqual(total);
    expect(Math.abs(total - start - program)).toBeLessThanOrEqual(1);
    expect(row![4]!.trim()).toMatch(chromiumSteps);
    expect(row![6]!.trim()).toMatch(/^worker \d+/);
  }
  expect(costs).toContain('- **start**: ');
  // …and its chart: a bar per language, its steps stacked.
  const firstSvg = readFileSync(join(out, 'bench-first.svg'), 'utf8');
  for (const label of ['Python', 'Shell', 'first program', 'harness', 'snapshot']) expect(firstSvg).toContain(`>${label}<`);
  expect(existsSync(join(out, 'bench-first.png'))).toBe(true);
  // Every runtime's download size comes from the files the build actually laid out.
  expect(report).toMatch(/Python: .*\| \d+(\.\d+)? MB/);
  expect(existsSync(join(out, 'bench.svg'))).toBe(true);
  // The chart of per-language ratios: a bar and a label per language, and the 1× and 10× lines.
  const ratioSvg = readFileSync(join(out, 'bench-ratio.svg'), 'utf8');
  for (const language of ['Python', 'Shell']) expect(ratioSvg).toContain(`>${language}<`);
  expect(ratioSvg).toMatch(/>\d+(\.\d)?×</);
  expect(ratioSvg).toContain('target 10×');
  expect(existsSync(join(out, 'bench-ratio.png'))).toBe(true);
}, 900_000);
