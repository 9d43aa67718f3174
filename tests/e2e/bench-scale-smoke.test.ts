/**
 * `npm run bench -- --scale` must not break unnoticed: the real scale run end to end on a tiny
 * setting (Python and Shell, four problems, a curve of 1 and 2 runner processes on two), into a
 * temporary folder. It checks the printed lines: each way names its figures, every canonical
 * answer passed on every way (a canonical solution passes its own tests: SPEC §1), the curve has
 * a point per process count, and the report section was written, with each way's canonical
 * failures (none here) and every problem's outcome in scale-problems.jsonl. It asserts no speed: the
 * figures come from a run at a real size (docs/bench.md, "Scale run").
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'benchtop-scale-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('npm run bench -- --scale finishes on a tiny size and prints every way, the curve and the ratio', async () => {
  expect(existsSync(join(root, 'dist/index.html')), 'run `npm run build` first').toBe(true);
  const { stdout } = await promisify(execFile)(process.execPath, ['dist-node/bench.mjs', '--scale', '--scale-size', '4'], {
    cwd: root,
    env: { ...process.env, BENCH_LANGUAGES: 'python,shell', BENCH_SCALE_CURVE_SIZE: '2', BENCH_SCALE_PROCESSES: '1,2', BENCH_OUT: out },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 900_000,
  });
  const lines = stdout.trim().split('\n');
  const way = (name: string) => lines.find((l) => l.startsWith(`scale ${name}: `)) ?? '';
  const figures = /: (\d+) problems, passed (\d+)\/(\d+), wall \d+\.\d s, first result \d+\.\d s, \d+\.\d\d problems\/s, per problem p50 \d+ ms \/ p95 \d+ ms, peak memory (\d+ MB|–)/;
  for (const name of ['in-page (Chromium)', 'CLI (Node workers)', 'runner (1 process, a sandboxed process per run)']) {
    const m = figures.exec(way(name));
    // Four runner problems can end (0.2 s) before the first /proc sample: "–" there, never elsewhere.
    if (!name.startsWith('runner')) expect(m?.[4], name).toMatch(/ MB$/);
    expect(m, `${name}: ${way(name)}`).not.toBeNull();
    expect(m!.slice(1, 4), name).toEqual(['4', '4', '4']);
  }
  // The page's own figures: its JS heap and the clicks it answered during the run. The page is
  // sampled once a second, so a run of a few seconds can leave an early quarter without a sample
  // ("–"); the last quarter always holds the last one.
  expect(way('in-page (Chromium)')).toMatch(/peak page JS heap \d+ MB \(last quarter [^;]+; by quarter (\d+|–) → (\d+|–) → (\d+|–) → \d+ MB\).*clicks answered p95 \d+ ms \/ max \d+ ms over [1-9]\d* clicks/);
  expect(lines).toContainEqual(expect.stringMatching(/^scale runner curve \(problems\/s\): 1 → \d+\.\d\d, 2 → \d+\.\d\d$/));
  expect(lines.at(-1)).toMatch(/^scale throughput in-page ÷ runner: \d+\.\d\dx$/);
  const report = readFileSync(join(out, 'bench.md'), 'utf8');
  expect(report).toMatch(/^## Scale run$/m);
  expect(report).toContain('`npm run bench -- --scale --scale-size 4`');
  expect(report).toMatch(/after start-up \(last quarter against the second[^)]*\): renderers ([+-]\d+\.\d%|–), page JS heap ([+-]\d+\.\d%|–)\./);
  // Every canonical solution passed, and the report says so per way rather than counting silently.
  expect(report).toMatch(/^- in-page \(Chromium\): every one passed\.$/m);
  expect(report).toMatch(/^- CLI \(Node workers\): every one passed\.$/m);
  // Every problem's outcome on every way: 4 in-page, 4 CLI, 4 runner, 2 + 2 on the curve.
  const outcomes = readFileSync(join(out, 'scale-problems.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { way: string; passed: boolean });
  expect(outcomes.length).toBe(16);
  expect(outcomes.every((o) => o.passed)).toBe(true);
}, 960_000);
