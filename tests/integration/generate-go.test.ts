/**
 * `npm run generate` for a runner language (Go), each way a seed can fail: one CLI run over six
 * seeds (tests/fixtures/gen/bad-go.jsonl), each scripted by the real local mock provider to fail one
 * way, run on the real runner (started in-process on 127.0.0.1). The stage and reason expected of
 * each come from the funnel's rules (issue #15), the verdict of a failing Go test from SPEC §4/§5.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedRunner } from '../../runner/runner';
import { funnelCounts, seedHash } from '../../src/gen/funnel';
import { journalOutcomes } from '../../src/gen/journal';
import { startGenMock, type GenMock } from '../support/gen-mock-provider';
import { startTestRunner } from '../support/runner-helpers';
import { tempDirs } from '../support/temp-dirs';

interface Run { code: number | null; stdout: string; stderr: string }
const tmp = tempDirs('benchtop-gen-go-')();

function node(script: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: 590_000, env: { ...process.env, OPENAI_API_KEY: 'sk-gen-test' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const codes = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { code: string }).code);

let mock: GenMock;
let runner: StartedRunner;
beforeAll(async () => {
  mock = await startGenMock();
  runner = await startTestRunner();
}, 300_000);
afterAll(async () => {
  await mock?.close();
  await runner?.close();
});

describe('npm run generate, Go on a runner', () => {
  it('each bad seed is dropped at its stage with its reason', { timeout: 600_000 }, async () => {
    const seeds = 'tests/fixtures/gen/bad-go.jsonl';
    const out = join(tmp, 'bad-go.jsonl');
    const run = await node('dist-node/generate.mjs', [
      '--seeds', seeds, '--language', 'go', '--model', 'openai:mock-gen', '--base-url', mock.baseUrl,
      '--difficulty-model', 'openai:mock-small', '--samples', '2', '--drop-always-solved', '--runner', runner.url, '--out', out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(lastLine(run.stdout)).toBe('generated: 0 of 6 seeds (dropped: solution 1, outputs 2, tests 2, filters 1)');
    expect(readFileSync(out, 'utf8')).toBe('');
    const outcomes = journalOutcomes(readFileSync(`${out}.journal.jsonl`, 'utf8'));
    const expected: Array<[string, RegExp]> = [
      // Stage 2: two runs of the same inputs disagree (the clock).
      ['outputs', /^non-deterministic: input Stamp\(\d\) gave \[\]int64\{\d, \d+\} then \[\]int64\{\d, \d+\}$/],
      // Stage 2: the runtime's own words for the crash, not go test's closing FAIL line.
      ['outputs', /^the solution crashed \(exit \d\): panic: runtime error: integer divide by zero/],
      // Stage 3: a failing `go test` exits non-zero, RUNTIME_ERROR (SPEC §4); sent back once, then dropped.
      ['tests', /^the public tests fail against their own solution after one send-back: RUNTIME_ERROR$/],
      // Stage 3: tests that only compute the results catch no mutant.
      ['tests', /^the tests are too weak: they pass all \d+ mutants of the solution$/],
      ['solution', /^malformed response \(twice\): missing SOLUTION, PUBLIC_INPUTS, PRIVATE_INPUTS$/],
      // Stage 5a with --drop-always-solved: the difficulty model's answers pass on the runner every time.
      ['filters', /^always solved: the difficulty model passed 2 of 2$/],
    ];
    const hashes = codes(seeds).map((c) => seedHash('go', c));
    expect(new Set(hashes).size).toBe(6);
    hashes.forEach((hash, i) => {
      const o = outcomes.get(hash)!;
      expect([o.kept, o.stage], hashes[i]).toEqual([false, expected[i]![0]]);
      expect(o.reason).toMatch(expected[i]![1]);
    });
    // The malformed seed was asked exactly twice (one retry); the wrong tests twice (one send-back,
    // carrying the failed run's output); the always-solved problem k = 2 times.
    expect(mock.bodies.filter((b) => b.includes('func Triple('))).toHaveLength(2);
    const squareTests = mock.bodies.filter((b) => b.includes('func Square(') && b.includes('Stage: tests'));
    expect(squareTests).toHaveLength(2);
    expect(squareTests[1]).toContain('did not pass against the reference solution');
    expect(mock.stages.filter((s) => s === 'difficulty')).toHaveLength(2);
    const manifest = JSON.parse(readFileSync(`${out}.manifest.json`, 'utf8')) as { funnel: unknown };
    expect(manifest.funnel).toEqual(funnelCounts([...outcomes.values()]));
  });
});
