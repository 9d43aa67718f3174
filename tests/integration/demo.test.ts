/**
 * The embedded demo set through the real runtimes, as the CLI runs it. Each recorded answer's
 * expected outcomes are cross-checked against the official way of running it: the same spliced
 * programs run as native processes (`python3 test.py`, `node test.js`, `tsx test.ts`), judged by
 * the same rules. So the expectations are not just asserted: the reference toolchain agrees.
 * The set covers all 20 languages; the runs cover the languages the in-process executor supports
 * (executor.languages()), so they grow as runtimes are added.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { NATIVE_COMMANDS, runNative } from '../../runtimes/native/process';
import { LANGUAGE_IDS, type LanguageId } from '../../src/contracts';
import type { AttemptResult } from '../../src/core/results';
import { evaluateAll } from '../../src/core/engine';
import { summarize } from '../../src/core/metrics';
import { parseDataset } from '../../src/core/records';
import { judgeRun } from '../../src/core/rules';
import { canonicalModel } from '../../src/models/canonical';
import { parseAnswers, replayAnswersModel } from '../../src/models/replay';

// Shorter than the official 30 s (the two runaway answers would cost it each), long enough for a
// C++ compile or a slow interpreter on a loaded 2-core machine. Python and JavaScript, where the
// two runaways are, get 8 s: their other programs end within a second, natively too (python3, node).
const TIMEOUT_MS = 15_000;
const limitMs = (language: LanguageId) => (language === 'python' || language === 'javascript' ? 8_000 : TIMEOUT_MS);
const dataset = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8'));
const answersText = readFileSync('bench-data/demo-answers.jsonl', 'utf8');
const expected = answersText.trim().split('\n').map((l) => JSON.parse(l) as { id: string; expected: { demo: string; full: string }; note: string });
const executor = createNodeExecutor({ poolSize: 2 });
afterAll(() => executor.dispose());
// The problems (and their recorded answers) that this executor can run.
const runnable = dataset.problems.filter((p) => executor.languages().includes(p.language));
const runnableIds = new Set(runnable.map((p) => p.id));
const expectedRunnable = expected.filter((a) => runnableIds.has(a.id));
const FAILING = ['WRONG_ANSWER', 'RUNTIME_ERROR', 'TIME_LIMIT_EXCEEDED', 'COMPILATION_ERROR', 'SYNTAX_ERROR'];
const recordedModel = () => replayAnswersModel('demo-answers.jsonl', parseAnswers(answersText).answers);
const answered = runnable.filter((p) => expectedRunnable.some((a) => a.id === p.id));
// The recorded answers' results below, kept for the native cross-check: it compares these very
// verdicts with the toolchain's instead of running every program in-page a second time. (That
// every canonical solution passes in every runnable language is checked through the CLI, on the
// same runtimes: tests/integration/cli.test.ts; the cross-check runs the canonical programs of
// its three languages itself.)
let recordedResults: AttemptResult[] | undefined;

describe('demo set', () => {
  it('covers all 20 languages with well-formed problems in the official style', () => {
    expect(dataset.errors).toEqual([]);
    for (const language of LANGUAGE_IDS) {
      const problems = dataset.problems.filter((p) => p.language === language);
      const minimum = ['python', 'javascript', 'typescript'].includes(language) ? 8 : 5;
      expect(problems.length, language).toBeGreaterThanOrEqual(minimum);
    }
    const nonEmptyLines = (t: string) => t.split('\n').filter((l) => l.trim() !== '').length;
    for (const p of dataset.problems) {
      expect(p.record.question, p.id).toMatch(/## Example Usage\n```\w+\n/);
      // The private test checks more than the public one.
      expect(nonEmptyLines(p.record.full_test_func), p.id).toBeGreaterThan(nonEmptyLines(p.record.demo_test_func));
      if (['python', 'javascript', 'typescript'].includes(p.language)) {
        const asserts = (t: string) => (t.match(/assert/g) ?? []).length;
        expect(asserts(p.record.full_test_func), p.id).toBeGreaterThan(asserts(p.record.demo_test_func));
      }
    }
  });

  it('has one recorded answer per problem, in order, and per language at least one passing and one failing answer', () => {
    expect(expected.map((a) => a.id)).toEqual(dataset.problems.map((p) => p.id));
    const language = new Map(dataset.problems.map((p) => [p.id, p.language]));
    for (const l of LANGUAGE_IDS) {
      const mine = expected.filter((a) => language.get(a.id) === l);
      expect(mine.some((a) => a.expected.demo === 'PASSED' && a.expected.full === 'PASSED'), `${l}: a passing answer`).toBe(true);
      expect(mine.some((a) => FAILING.includes(a.expected.demo) || FAILING.includes(a.expected.full)), `${l}: a failing answer`).toBe(true);
      for (const a of mine) expect(a.note.length, a.id).toBeGreaterThan(0);
    }
  });

  it('recorded answers give exactly the expected outcomes, covering every kind of answer', async () => {
    const results = await evaluateAll(answered, recordedModel(), executor, { concurrency: 2, timeoutMs: limitMs });
    recordedResults = results;
    const got = results.map((r) => ({ id: r.id, expected: { demo: r.demo?.outcome, full: r.full?.outcome } }));
    expect(got).toEqual(expectedRunnable.map(({ id, expected }) => ({ id, expected })));
    const outcomes = new Set(results.flatMap((r) => [r.demo!.outcome, r.full!.outcome]));
    expect([...outcomes]).toEqual(expect.arrayContaining(['PASSED', 'RUNTIME_ERROR', 'TIME_LIMIT_EXCEEDED']));
    // Every failing recorded answer exits non-zero, and the exit code is checked before the error
    // substrings (SPEC §4, corrected 2026-12-01), so none is WRONG_ANSWER, whatever it printed.
    expect(outcomes.has('WRONG_ANSWER')).toBe(false);
    const printedMarker = results.flatMap((r) => [r.demo!, r.full!]).filter((run) => typeof run.exitCode === 'number' && run.exitCode !== 0 && !run.timedOut && run.outcome !== 'COMPILATION_ERROR' && /failed|AssertionError/.test(run.stdout + run.stderr));
    expect(printedMarker.length).toBeGreaterThan(0);
    expect(new Set(printedMarker.map((run) => run.outcome))).toEqual(new Set(['RUNTIME_ERROR']));
    const pass1 = summarize(results).pass1;
    expect(pass1).toBeGreaterThan(0.3);
    expect(pass1).toBeLessThan(0.9);
  }, 360_000); // every runtime of the set loads here (C++ compiles each program) on 2 busy cores

  it('the official toolchain run natively agrees with every in-browser verdict (canonical and recorded)', async () => {
    // The languages with both an executor runtime and a native reference command. The native
    // commands now cover all nine in-page languages (issue #16, for the bench); this check stays
    // on the three it was written for until the other six are compared here too.
    const checked = runnable.filter((p) => NATIVE_COMMANDS[p.language] && ['python', 'javascript', 'typescript'].includes(p.language));
    const checkedIds = new Set(checked.map((p) => p.id));
    const checkedAnswered = answered.filter((p) => checkedIds.has(p.id));
    // The canonical solutions run here; the recorded answers' run above, or (this test run alone) the same run made here.
    const canonical = await evaluateAll(checked, canonicalModel, executor, { concurrency: 2, timeoutMs: limitMs });
    expect(canonical.filter((r) => r.verdict !== 'passed').map((r) => r.id)).toEqual([]);
    const recorded = (recordedResults ?? await evaluateAll(checkedAnswered, recordedModel(), executor, { concurrency: 2, timeoutMs: limitMs })).filter((r) => checkedIds.has(r.id));
    const runs = [...canonical, ...recorded].flatMap((result) => [result.demo!, result.full!].map((run) => ({ result, run })));
    const disagreements: string[] = [];
    const check = async ({ result, run }: (typeof runs)[number]) => {
      const native = await runNative({ language: result.language, program: run.program, timeoutMs: limitMs(result.language) });
      const nativeOutcome = judgeRun(result.language, native);
      if (nativeOutcome !== run.outcome) disagreements.push(`${result.id} (${result.language}): benchtop ${run.outcome}, native ${nativeOutcome}\n${native.stderr.slice(0, 500)}`);
    };
    // Two processes at a time, one per core: each takes the next run as soon as it is free.
    let next = 0;
    const lane = async () => { while (next < runs.length) await check(runs[next++]!); };
    await Promise.all([lane(), lane()]);
    expect(checked.length).toBeGreaterThanOrEqual(24);
    expect(canonical.map((r) => r.id)).toEqual(checked.map((p) => p.id));
    expect(recorded.map((r) => r.id)).toEqual(checkedAnswered.map((p) => p.id));
    expect(runs).toHaveLength((checked.length + checkedAnswered.length) * 2);
    expect(disagreements).toEqual([]);
  }, 600_000);
});
