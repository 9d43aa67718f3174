/** Breakdowns of first attempts, the run manifest, and chart data. */
import { describe, expect, it } from 'vitest';
import { chartData } from '../../src/charts/data';
import { byDifficulty, byOutcome, bySubset, byLanguage } from '../../src/core/breakdown';
import { buildManifest, sha256Hex } from '../../src/core/manifest';
import { SYSTEM_PROMPT } from '../../src/core/prompt';
import type { LanguageId, Outcome } from '../../src/contracts';
import type { AttemptResult, Verdict } from '../../src/core/results';

let n = 0;
function r(id: string, language: LanguageId, difficulty: string, verdict: Verdict, sample = 0, turn = 1, outcome: Outcome = 'WRONG_ANSWER'): AttemptResult {
  const run = (o: Outcome) => ({ program: '', outcome: o, exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1, runtime: 'fake 1.0' });
  return {
    id, index: n++, language, difficulty, answer: 'a', extractedCode: 'c', extraction: 'x',
    demo: verdict === 'infra_error' ? null : run(verdict === 'passed' ? 'PASSED' : outcome),
    full: verdict === 'infra_error' ? null : run(verdict === 'passed' ? 'PASSED' : outcome),
    verdict, durationMs: 1, sample, turn,
  };
}

// First attempts: a (python easy passed), b (python hard failed RUNTIME_ERROR), c (js medium passed),
// d (js easy infra_error). Later attempts of a and b must not count.
const results = [
  r('a', 'python', 'easy', 'passed'), r('a', 'python', 'easy', 'failed', 1),
  r('b', 'python', 'hard', 'failed', 0, 1, 'RUNTIME_ERROR'), r('b', 'python', 'hard', 'passed', 0, 2),
  r('c', 'javascript', 'medium', 'passed'),
  r('d', 'javascript', 'easy', 'infra_error'),
];

describe('breakdowns', () => {
  it('per difficulty, in the order easy, medium, hard, over first attempts', () => {
    expect(byDifficulty(results).map((d) => [d.key, d.passed, d.total, d.infraErrors])).toEqual([['easy', 1, 1, 1], ['medium', 1, 1, 0], ['hard', 0, 1, 0]]);
  });
  it('per language and per outcome', () => {
    expect(byLanguage(results).map((d) => [d.label, d.passed, d.total])).toEqual([['JavaScript', 1, 1], ['Python', 1, 2]]);
    expect(byOutcome(results)).toEqual([{ outcome: 'PASSED', count: 2 }, { outcome: 'RUNTIME_ERROR', count: 1 }, { outcome: 'INFRA_ERROR', count: 1 }]);
  });
  it('a subset (Lite) against the rest', () => {
    expect(bySubset(results, new Set(['b', 'c'])).map((d) => [d.label, d.passed, d.total])).toEqual([['Lite', 1, 2], ['not in Lite', 1, 1]]);
  });
});

describe('the manifest', () => {
  const base = {
    datasetSource: 'x.jsonl', datasetText: 'abc', problems: 4, selection: { languages: [], difficulties: [] }, model: 'replay:x',
    settings: { samples: 2, turns: 2, feedback: 'demo' as const, feedbackChars: 2000, systemPrompt: SYSTEM_PROMPT, completion: false, extractionMode: 'compat' as const, timeLimitSeconds: null },
    runtimes: ['fake 1.0'], environment: { node: 'v20' }, results, created: '2026-01-01T00:00:00.000Z',
  };
  it('hashes the dataset and names the settings, and carries the figures', () => {
    const m = buildManifest(base);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(m.dataset.sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(m.settings).toMatchObject({ samples: 2, turns: 2, feedback: 'demo', mode: 'chat', system_prompt_is_official: true, time_limit_seconds: null });
    expect(m.settings).not.toHaveProperty('system_prompt');
    // pass1: a, c passed of a, b, c (d infra) → 2/3
    // ci95: Wilson score interval of 2/3 (by hand: 0.207660–0.938508).
    expect(m.figures.pass1).toEqual({ passed: 2, total: 3, value: 0.666667, ci95: [0.20766, 0.938508], infra_errors: 1, unsupported: 0 });
    // Pass@1 after turn 2: b passes at turn 2 → 3/3
    expect(m.figures.pass1_by_turn).toEqual([{ turn: 1, passed: 2, total: 3, value: 0.666667 }, { turn: 2, passed: 3, total: 3, value: 1 }]);
    // pass@1 over samples after turn 2: a (n=2, c=1) 0.5, b (n=1) 1, c (n=1) 1 → 0.833333; d (its only sample
    // INFRA_ERROR: n=0) is left out. pass@2: only a (n=2) → 1; b, c and d left out.
    // Bootstrap over the values 0.5, 1, 1: a resample is all 0.5 with chance 1/27 (3.7% > 2.5%) and
    // all 1 with chance 8/27, so the percentile interval is [0.5, 1]; one value gives [1, 1].
    expect(m.figures.pass_at_k).toEqual([{ k: 1, value: 0.833333, ci95: [0.5, 1], problems: 3, left_out: 1 }, { k: 2, value: 1, ci95: [1, 1], problems: 1, left_out: 3 }]);
    // Per language, each over its own problems: Python's values 0.5 (a) and 1 (b) give [0.5, 1] (a
    // resample of both is all 0.5 or all 1 with chance 1/4 each); JavaScript has c alone (d left out).
    // pass@2: only a (Python) has two samples; JavaScript has no interval.
    const perLanguage = m.figures.per_language as Array<{ language: string; pass_at_k: Array<{ k: number; ci95: unknown }> }>;
    expect(Object.fromEntries(perLanguage.map((l) => [l.language, l.pass_at_k.map((p) => [p.k, p.ci95])]))).toEqual({
      python: [[1, [0.5, 1]], [2, [1, 1]]],
      javascript: [[1, [1, 1]], [2, null]],
    });
  });
  it('includes a system prompt that is not the official one', () => {
    expect(buildManifest({ ...base, settings: { ...base.settings, systemPrompt: 'mine' } }).settings).toMatchObject({ system_prompt: 'mine', system_prompt_is_official: false });
  });
});

describe('chart data', () => {
  it('holds the first-attempt bars, the refinement curve and the pass@k curve', () => {
    const d = chartData(results, { title: 't', samples: 2, turns: 2 });
    expect(d.languages.map((l) => [l.label, l.passed, l.total])).toEqual([['JavaScript', 1, 1], ['Python', 1, 2]]);
    expect(d.overall).toBeCloseTo(2 / 3, 12);
    expect(d.turns.map((t) => t.pass1)).toEqual([2 / 3, 1]);
    expect(d.passk).toEqual([{ k: 1, value: expect.closeTo(5 / 6, 12), low: 0.5, high: 1 }, { k: 2, value: 1, low: 1, high: 1 }]);
    // Error bars: Wilson intervals (Python 1/2 → 0.0945–0.9055 by hand; JavaScript 1/1 → 0.2065–1).
    expect(d.languages.map((l) => [l.low, l.high])).toEqual([[expect.closeTo(0.206549, 5), 1], [expect.closeTo(0.094531, 5), expect.closeTo(0.905469, 5)]]);
  });
  it('leaves out only the pass@k curve when asked (the page draws it for runs of more than one sample)', () => {
    const all = chartData(results, { title: 't', samples: 2, turns: 2 });
    const without = chartData(results, { title: 't', samples: 2, turns: 2, passk: false });
    expect(without.passk).toEqual([]);
    expect({ ...without, passk: all.passk }).toEqual(all);
  });
});
