/**
 * `npm run generate` as a user runs it (the bundled CLI in a child process) against a real local
 * provider (tests/support/gen-mock-provider.ts) and the real runtimes. Expected drops come from the
 * issue's stage rules; "evaluates at 100%" from `npm run eval --model canonical` on the output.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedHash } from '../../src/gen/funnel';
import { journalOutcomes } from '../../src/gen/journal';
import { startGenMock, type GenMock } from '../support/gen-mock-provider';
import { tempDirs } from '../support/temp-dirs';

interface Run { code: number | null; stdout: string; stderr: string }
const KEY = 'sk-gen-test-secret-0042';
const tmp = tempDirs('benchtop-gen-')();

function node(script: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { timeout: 590_000, env: { ...process.env, OPENAI_API_KEY: KEY } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}
const genArgs = (mock: GenMock, seeds: string, language: string, out: string, ...extra: string[]) => [
  '--seeds', seeds, '--language', language, '--model', 'openai:mock-gen', '--base-url', mock.baseUrl,
  '--difficulty-model', 'openai:mock-small', '--samples', '2', '--out', out, ...extra,
];
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const jsonl = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const codes = (file: string) => jsonl(file).map((r) => r.code as string);

let mock: GenMock;
beforeEach(async () => {
  mock = await startGenMock();
});
afterEach(() => mock.close());

/** Requests of an uninterrupted Python run, and its output (for the resume test). */
const fresh: { requests?: number; output?: string } = {};

describe('npm run generate', () => {
  for (const language of ['python', 'javascript', 'ruby']) {
    it(`${language}: 10 good seeds all kept; the output evaluates at 100% with --model canonical`, { timeout: 600_000 }, async () => {
      const seeds = `bench-data/gen-seeds/${language}.jsonl`;
      const out = join(tmp, `good-${language}.jsonl`);
      const run = await node('dist-node/generate.mjs', genArgs(mock, seeds, language, out, '--concurrency', '1'));
      expect(run.code, run.stderr).toBe(0);
      expect(lastLine(run.stdout)).toBe('generated: 10 of 10 seeds (none dropped)');
      if (language === 'python') Object.assign(fresh, { requests: mock.bodies.length, output: readFileSync(out, 'utf8') });

      const records = jsonl(out);
      expect(records.map((r) => r.seed_hash)).toEqual(codes(seeds).map((c) => seedHash(language, c)));
      for (const r of records) {
        expect(r.language).toBe(language);
        // The difficulty model (mock) solves gcd once in 2 tries, nothing else: 1 → medium, 0 → hard.
        const gcd = /gcd/.test(r.canonical_solution as string);
        expect([r.difficulty, r.difficulty_passes]).toEqual(gcd ? ['medium', '1/2'] : ['hard', '0/2']);
        expect(r.critic_score).toBe(8);
        expect(r.mutation_check).toMatch(/^caught at \d+ of \d+$/);
      }
      // clamp's first tests expect a wrong value: sent back once with the output, fixed, kept.
      const sentBack = mock.bodies.filter((b) => b.includes('did not pass against the reference solution'));
      expect(sentBack).toHaveLength(1);
      expect(sentBack[0]).toMatch(/clamp|bound/);

      const manifest = JSON.parse(readFileSync(`${out}.manifest.json`, 'utf8')) as { seeds: unknown; funnel: { seeds: number; kept: number; passed: Record<string, number> }; prompts: { version: string; sha256: Record<string, string> } };
      const outcomes = [...journalOutcomes(readFileSync(`${out}.journal.jsonl`, 'utf8')).values()];
      expect(manifest.funnel.seeds).toBe(outcomes.length);
      expect(manifest.funnel.kept).toBe(outcomes.filter((o) => o.kept).length);
      expect(manifest.funnel.passed.filters).toBe(10);
      expect(manifest.seeds).toEqual({ file: seeds, sha256: createHash('sha256').update(readFileSync(seeds)).digest('hex'), count: 10 });
      expect(Object.keys(manifest.prompts.sha256)).toEqual(expect.arrayContaining(['system', 'solution', 'tests', 'statement', 'critic']));
      for (const file of [out, `${out}.manifest.json`, `${out}.journal.jsonl`]) expect(readFileSync(file, 'utf8')).not.toContain(KEY);

      // A second run without --resume would throw the journal away: refused.
      const again = await node('dist-node/generate.mjs', genArgs(mock, seeds, language, out));
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('holds an earlier run: continue it with --resume');

      const evaluated = await node('dist-node/cli.mjs', ['--data', out, '--model', 'canonical']);
      expect(evaluated.code, evaluated.stderr).toBe(0);
      expect(lastLine(evaluated.stdout)).toBe('Pass@1: 100.0% (10/10)');
    });

    if (language !== 'ruby') it(`${language}: each bad seed is dropped at its stage with its reason`, { timeout: 600_000 }, async () => {
      const seeds = `tests/fixtures/gen/bad-${language}.jsonl`;
      const out = join(tmp, `bad-${language}.jsonl`);
      const run = await node('dist-node/generate.mjs', genArgs(mock, seeds, language, out, '--drop-always-solved'));
      expect(run.code, run.stderr).toBe(0);
      expect(lastLine(run.stdout)).toBe('generated: 0 of 6 seeds (dropped: solution 1, outputs 2, tests 2, filters 1)');
      expect(readFileSync(out, 'utf8')).toBe('');
      const outcomes = journalOutcomes(readFileSync(`${out}.journal.jsonl`, 'utf8'));
      const expected: Array<[string, RegExp]> = [
        ['outputs', /^non-deterministic: input \w+\(\d+\) gave /],
        ['outputs', language === 'python' ? /^the solution crashed \(exit 1\): ZeroDivisionError: division by zero$/ : /^the solution crashed \(exit 1\): Error: not an age: x$/],
        ['tests', /^the public tests fail against their own solution after one send-back: RUNTIME_ERROR$/],
        ['tests', /^the tests are too weak: they pass all \d+ mutants of the solution$/],
        ['solution', /^malformed response \(twice\): missing SOLUTION, PUBLIC_INPUTS, PRIVATE_INPUTS$/],
        ['filters', /^always solved: the difficulty model passed 2 of 2$/],
      ];
      codes(seeds).forEach((code, i) => {
        const o = outcomes.get(seedHash(language, code))!;
        expect(o.kept).toBe(false);
        expect(o.stage).toBe(expected[i]![0]);
        expect(o.reason).toMatch(expected[i]![1]);
      });
      // The malformed seed was asked exactly twice (one retry), the always-solved one k = 2 times.
      const triple = language === 'python' ? 'def triple(' : 'function triple(';
      expect(mock.bodies.filter((b) => b.includes(triple))).toHaveLength(2);
      expect(mock.stages.filter((s) => s === 'difficulty')).toHaveLength(2);
    });
  }

  it('a run killed mid-way (SIGKILL) and resumed asks no question twice and ends as an uninterrupted run', { timeout: 600_000 }, async () => {
    expect(fresh.requests, 'runs after the Python good-seed test').toBeGreaterThan(20);
    const out = join(tmp, 'killed.jsonl');
    const journal = `${out}.journal.jsonl`;
    const asks = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter((l) => l.startsWith('{"type":"ask"')).length : 0);
    const child = spawn(process.execPath, ['dist-node/generate.mjs', ...genArgs(mock, 'bench-data/gen-seeds/python.jsonl', 'python', out, '--concurrency', '1')], { stdio: 'ignore' });
    const exited = new Promise((r) => child.on('exit', r));
    while (asks() < 20) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    await exited;
    const journalled = asks();
    const firstRun = mock.bodies.length;
    expect(existsSync(out)).toBe(false);
    // At most the one question in flight at the kill was asked and not journalled.
    expect(firstRun - journalled).toBeLessThanOrEqual(1);

    const resumed = await node('dist-node/generate.mjs', genArgs(mock, 'bench-data/gen-seeds/python.jsonl', 'python', out, '--concurrency', '1', '--resume'));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(lastLine(resumed.stdout)).toBe('generated: 10 of 10 seeds (none dropped)');
    const secondRun = mock.bodies.length - firstRun;
    expect(secondRun).toBeGreaterThan(0);
    expect(secondRun).toBeLessThanOrEqual(fresh.requests! - journalled);
    const answered = new Set(mock.bodies.slice(0, journalled));
    // No question answered and journalled before the kill is asked again (the difficulty model's
    // identical samples aside, which are distinct questions with one text).
    expect(mock.bodies.slice(firstRun).filter((b) => answered.has(b) && !b.includes('You are an expert programmer'))).toEqual([]);
    expect(readFileSync(out, 'utf8')).toBe(fresh.output);
  });
});
