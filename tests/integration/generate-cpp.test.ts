/**
 * `npm run generate` beyond the interpreted languages: C++ (the in-page clang runtime, routed as
 * `npm run eval` routes it), Go (the real runner, started in-process on 127.0.0.1), and stage 6,
 * translation (Python to Ruby). The provider is the real local mock (tests/support/gen-mock-provider.ts);
 * "evaluates at 100%" is `npm run eval --model canonical` on the output file.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedRunner } from '../../runner/runner';
import { funnelCounts, seedHash } from '../../src/gen/funnel';
import { journalOutcomes } from '../../src/gen/journal';
import { startGenMock, type GenMock } from '../support/gen-mock-provider';
import { startTestRunner } from '../support/runner-helpers';
import { tempDirs } from '../support/temp-dirs';

interface Run { code: number | null; stdout: string; stderr: string }
const tmp = tempDirs('benchtop-gen-cpp-')();

function node(script: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: 590_000, env: { ...process.env, OPENAI_API_KEY: 'sk-gen-test' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}
const genArgs = (seeds: string, language: string, out: string, ...extra: string[]) => [
  '--seeds', seeds, '--language', language, '--model', 'openai:mock-gen', '--base-url', mock.baseUrl, '--out', out, ...extra,
];
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const jsonl = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const codes = (file: string) => jsonl(file).map((r) => r.code as string);
const manifestOf = (out: string) => JSON.parse(readFileSync(`${out}.manifest.json`, 'utf8')) as { funnel: unknown; translationsDropped: unknown[] };
const journalled = (out: string) => [...journalOutcomes(readFileSync(`${out}.journal.jsonl`, 'utf8')).values()];

let mock: GenMock;
beforeAll(async () => {
  mock = await startGenMock();
});
afterAll(() => mock.close());

describe('npm run generate, compiled languages and stage 6', () => {
  // CI runs 4 of the 10 C++ seeds (each seed costs some ten clang compiles): together they take
  // every layout of the mock's answers, the send-back, and the printing helper's map, pair, double
  // and escaped string. BENCHTOP_GEN_CPP_SEEDS=all runs all 10 (bench-data/gen-seeds/README.md).
  const allSeeds = process.env.BENCHTOP_GEN_CPP_SEEDS === 'all';
  const CI_SEEDS = ['letterCounts', 'minMax', 'average', 'reverseWords'];
  it(`cpp: ${allSeeds ? 10 : CI_SEEDS.length} good seeds all kept (one after a send-back); the output evaluates at 100% with --model canonical`, { timeout: 900_000 }, async () => {
    const seeds = join(tmp, 'cpp-seeds.jsonl');
    const chosen = readFileSync('bench-data/gen-seeds/cpp.jsonl', 'utf8').split('\n').filter((l) => l && (allSeeds || CI_SEEDS.some((name) => l.includes(` ${name}(`))));
    const n = allSeeds ? 10 : CI_SEEDS.length;
    expect(chosen).toHaveLength(n);
    // The mock answers seed.length % 3 in three layouts (tagged fences, CRLF bare fences, bold headings).
    expect(new Set(chosen.map((l) => (JSON.parse(l) as { code: string }).code.length % 3))).toEqual(new Set([0, 1, 2]));
    writeFileSync(seeds, chosen.join('\n') + '\n');
    const out = join(tmp, 'good-cpp.jsonl');
    const run = await node('dist-node/generate.mjs', genArgs(seeds, 'cpp', out));
    expect(run.code, run.stderr).toBe(0);
    expect(lastLine(run.stdout)).toBe(`generated: ${n} of ${n} seeds (none dropped)`);
    const records = jsonl(out);
    expect(records.map((r) => r.seed_hash)).toEqual(codes(seeds).map((c) => seedHash('cpp', c)));
    for (const r of records) {
      expect(r.language).toBe('cpp');
      expect(r.demo_test_func).toContain('#include <cassert>');
      expect(r.mutation_check).toMatch(/^caught at \d+ of \d+$/);
    }
    // The observed outputs the tests were written from, as our printing helper wrote them: a
    // map, a pair of ints, doubles with 6 decimals, an escaped string (values from the seeds' semantics).
    const testsOf = (name: string) => records.find((r) => (r.canonical_solution as string).includes(name))!.full_test_func as string;
    expect(testsOf('letterCounts')).toContain('(letterCounts("Mississippi", 4)) == map<char, int>{{\'i\', 4}, {\'s\', 4}}');
    expect(testsOf('minMax')).toContain('(minMax({0, -2147483647, 2147483647})) == pair<int, int>{-2147483647, 2147483647}');
    expect(testsOf('average')).toContain('fabs((average({1, 1, 2})) - (1.333333)) < 1e-6');
    expect(testsOf('reverseWords')).toContain('(reverseWords("say \\"hi\\" now")) == "now \\"hi\\" say"');
    if (allSeeds) expect(testsOf('editDistance')).toContain('(editDistance("intention", "execution")) == 5');
    // minMax's first tests were wrong: sent back once with the run's output, then kept.
    expect(mock.bodies.filter((b) => b.includes('did not pass against the reference solution'))).toHaveLength(1);
    expect(manifestOf(out).funnel).toEqual(funnelCounts(journalled(out)));

    const evaluated = await node('dist-node/cli.mjs', ['--data', out, '--model', 'canonical']);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(lastLine(evaluated.stdout)).toBe(`Pass@1: 100.0% (${n}/${n})`);
  });

  describe('with a runner', () => {
    let runner: StartedRunner;
    beforeAll(async () => {
      runner = await startTestRunner();
    }, 300_000);
    afterAll(() => runner?.close());

    it('go: the seeds go all the way on the runner; the output evaluates at 100% there', { timeout: 900_000 }, async () => {
      const seeds = 'bench-data/gen-seeds/go.jsonl';
      const out = join(tmp, 'good-go.jsonl');
      // Without a runner nothing here runs Go: refused before any question is asked.
      const asked = mock.bodies.length;
      const refused = await node('dist-node/generate.mjs', genArgs(seeds, 'go', join(tmp, 'no-runner.jsonl')));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('nothing here runs go');
      expect(mock.bodies.length).toBe(asked);
      expect(existsSync(join(tmp, 'no-runner.jsonl.journal.jsonl'))).toBe(false);

      const run = await node('dist-node/generate.mjs', genArgs(seeds, 'go', out, '--runner', runner.url));
      expect(run.code, run.stderr).toBe(0);
      expect(lastLine(run.stdout)).toBe('generated: 3 of 3 seeds (none dropped)');
      const records = jsonl(out);
      expect(records.map((r) => r.language)).toEqual(['go', 'go', 'go']);
      // %#v literals: a map with sorted keys, runes reversed whole.
      expect(records[2]!.full_test_func).toContain('reflect.DeepEqual(got, map[string]int{"a":2, "b":2})');
      expect(records[0]!.full_test_func).toContain('reflect.DeepEqual(got, "語本日")');
      expect(manifestOf(out).funnel).toEqual(funnelCounts(journalled(out)));

      const evaluated = await node('dist-node/cli.mjs', ['--data', out, '--model', 'canonical', '--runner', runner.url]);
      expect(evaluated.code, evaluated.stderr).toBe(0);
      expect(lastLine(evaluated.stdout)).toBe('Pass@1: 100.0% (3/3)');
    });
  });

  it('translation: Python to Ruby, a faithful one verified and kept, a wrong one dropped at tests with the reason', { timeout: 600_000 }, async () => {
    const seeds = 'tests/fixtures/gen/translate-python.jsonl';
    const out = join(tmp, 'translated.jsonl');
    const run = await node('dist-node/generate.mjs', genArgs(seeds, 'python', out, '--translate-to', 'ruby'));
    expect(run.code, run.stderr).toBe(0);
    expect(lastLine(run.stdout)).toBe('generated: 2 of 2 seeds (none dropped); translated: 1 of 2 (dropped: tests 1)');
    const records = jsonl(out);
    expect(records.map((r) => [r.language, r.translated_from ?? null])).toEqual([['python', null], ['python', null], ['ruby', 'python']]);
    const ruby = records[2]!;
    expect(ruby.canonical_solution).toContain('def gcd(a, b)');
    expect(ruby.seed_hash).toBe(records[1]!.seed_hash);
    expect(ruby.full_test_func).toContain('raise "Test 9 failed" unless (gcd(1071, 462)) == 21');

    // count_vowels' Ruby translation also counts "y": the private case 'rhythm' catches it.
    const outcomes = journalOutcomes(readFileSync(`${out}.journal.jsonl`, 'utf8'));
    const vowels = outcomes.get(seedHash('python', codes(seeds)[0]!))!;
    expect(vowels.kept).toBe(true);
    expect(vowels.translations).toEqual([{ to: 'ruby', kept: false, stage: 'tests', reason: 'the translated private tests fail against the translated solution: RUNTIME_ERROR' }]);
    const manifest = manifestOf(out);
    expect(manifest.funnel).toEqual(funnelCounts([...outcomes.values()]));
    expect(manifest.funnel).toMatchObject({ kept: 2, translations: { asked: 2, kept: 1, dropped: { tests: 1 } } });
    expect(manifest.translationsDropped).toHaveLength(1);

    const evaluated = await node('dist-node/cli.mjs', ['--data', out, '--model', 'canonical']);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(lastLine(evaluated.stdout)).toBe('Pass@1: 100.0% (3/3)');
  });
});
