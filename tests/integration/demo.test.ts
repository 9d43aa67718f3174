/**
 * The embedded demo set through the real runtimes, as the CLI runs it. Each recorded answer's
 * expected outcomes are cross-checked against the official way of running it: the same spliced
 * programs run as native processes (`python3 test.py`, `node test.js`, `tsx test.ts`), judged by
 * the same rules. So the expectations are not just asserted: the reference toolchain agrees.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { runNative } from '../../runtimes/native/process';
import { evaluateAll } from '../../src/core/engine';
import { summarize } from '../../src/core/metrics';
import { parseDataset } from '../../src/core/records';
import { judgeRun } from '../../src/core/rules';
import { canonicalModel } from '../../src/models/canonical';
import { parseAnswers, replayAnswersModel } from '../../src/models/replay';

const TIMEOUT_MS = 5000; // the runaway answers would otherwise cost the official 30 s each
const dataset = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8'));
const answersText = readFileSync('bench-data/demo-answers.jsonl', 'utf8');
const expected = answersText.trim().split('\n').map((l) => JSON.parse(l) as { id: string; expected: { demo: string; full: string }; note: string });
const executor = createNodeExecutor({ poolSize: 2 });
afterAll(() => executor.dispose());

describe('demo set', () => {
  it('has at least 8 well-formed problems per walking-skeleton language, in the official style', () => {
    expect(dataset.errors).toEqual([]);
    for (const language of ['python', 'javascript', 'typescript']) {
      const problems = dataset.problems.filter((p) => p.language === language);
      expect(problems.length, language).toBeGreaterThanOrEqual(8);
    }
    for (const p of dataset.problems) {
      expect(p.record.question).toMatch(/```/);
      const asserts = (t: string) => (t.match(/assert/g) ?? []).length;
      expect(asserts(p.record.full_test_func), p.id).toBeGreaterThan(asserts(p.record.demo_test_func));
    }
  });

  it('canonical solutions all pass (Pass@1 100%)', async () => {
    const results = await evaluateAll(dataset.problems, canonicalModel, executor, { concurrency: 2 });
    const failures = results.filter((r) => r.verdict !== 'passed').map((r) => `${r.id} ${r.demo?.outcome}/${r.full?.outcome}\n${r.demo?.stderr}${r.full?.stderr}`);
    expect(failures).toEqual([]);
    expect(summarize(results).pass1).toBe(1);
  });

  it('recorded answers give exactly the expected outcomes, covering every kind of answer', async () => {
    const model = replayAnswersModel('demo-answers.jsonl', parseAnswers(answersText).answers);
    const results = await evaluateAll(dataset.problems, model, executor, { concurrency: 2, timeoutMs: () => TIMEOUT_MS });
    const got = results.map((r) => ({ id: r.id, expected: { demo: r.demo?.outcome, full: r.full?.outcome } }));
    expect(got).toEqual(expected.map(({ id, expected }) => ({ id, expected })));
    const outcomes = new Set(results.flatMap((r) => [r.demo!.outcome, r.full!.outcome]));
    expect([...outcomes].sort()).toEqual(['PASSED', 'RUNTIME_ERROR', 'TIME_LIMIT_EXCEEDED', 'WRONG_ANSWER']);
    const pass1 = summarize(results).pass1;
    expect(pass1).toBeGreaterThan(0.3);
    expect(pass1).toBeLessThan(0.9);
  });

  it('the official toolchain run natively agrees with every in-browser verdict (canonical and recorded)', async () => {
    const model = replayAnswersModel('demo-answers.jsonl', parseAnswers(answersText).answers);
    const [canonical, recorded] = [
      await evaluateAll(dataset.problems, canonicalModel, executor, { concurrency: 2, timeoutMs: () => TIMEOUT_MS }),
      await evaluateAll(dataset.problems, model, executor, { concurrency: 2, timeoutMs: () => TIMEOUT_MS }),
    ];
    const runs = [...canonical, ...recorded].flatMap((result) => [result.demo!, result.full!].map((run) => ({ result, run })));
    const disagreements: string[] = [];
    const check = async ({ result, run }: (typeof runs)[number]) => {
      const native = await runNative({ language: result.language, program: run.program, timeoutMs: TIMEOUT_MS });
      const nativeOutcome = judgeRun(result.language, native);
      if (nativeOutcome !== run.outcome) disagreements.push(`${result.id} (${result.language}): benchtop ${run.outcome}, native ${nativeOutcome}\n${native.stderr.slice(0, 500)}`);
    };
    // Two processes at a time: one per core.
    for (let i = 0; i < runs.length; i += 2) await Promise.all(runs.slice(i, i + 2).map(check));
    expect(runs).toHaveLength(dataset.problems.length * 4);
    expect(disagreements).toEqual([]);
  }, 600_000);
});
