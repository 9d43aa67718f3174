/** pass@k (Chen et al. 2021) and Pass@1 after each refinement turn, against figures computed by hand. */
import { describe, expect, it } from 'vitest';
import type { LanguageId } from '../../src/contracts';
import {
  curveKs, firstAttempts, formatPassAtK, formatTurn, pass1ByTurn, passAtK, passAtKEstimate, reportedKs, sampleVerdictAt,
} from '../../src/core/passk';
import type { AttemptResult, Verdict } from '../../src/core/results';
import { formatRange, passAtKIntervals, uncertainty } from '../../src/core/uncertainty';

/** C(n, k) exactly, with BigInt: an independent check of the product form. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
const exact = (n: number, c: number, k: number) => 1 - Number((binomial(n - c, k) * 10n ** 15n) / binomial(n, k)) / 1e15;

describe('the unbiased estimator', () => {
  it.each([
    // n, c, k, by hand
    [5, 2, 1, 2 / 5],
    [5, 2, 5, 1],
    [5, 2, 2, 1 - 3 / 10], // 1 − C(3,2)/C(5,2)
    [5, 2, 3, 1 - 1 / 10], // 1 − C(3,3)/C(5,3)
    [5, 2, 4, 1], // n − c = 3 < 4
    [10, 3, 5, 1 - 21 / 252], // 1 − C(7,5)/C(10,5)
    [10, 3, 1, 0.3],
    [4, 1, 2, 1 - 3 / 6], // 1 − C(3,2)/C(4,2)
    [5, 0, 3, 0],
    [5, 5, 1, 1],
    [1, 1, 1, 1],
    [1, 0, 1, 0],
  ])('n=%i c=%i k=%i → %f', (n, c, k, want) => {
    expect(passAtKEstimate(n, c, k)).toBeCloseTo(want, 12);
  });

  it('is stable for large n (agrees with exact binomials)', () => {
    for (const [n, c, k] of [[200, 37, 10], [200, 1, 100], [1000, 3, 10], [100, 50, 50]] as const) {
      expect(passAtKEstimate(n, c, k)).toBeCloseTo(exact(n, c, k), 9);
    }
  });

  it('is defined only for 1 ≤ k ≤ n and 0 ≤ c ≤ n', () => {
    expect(() => passAtKEstimate(3, 1, 4)).toThrow(RangeError);
    expect(() => passAtKEstimate(3, 1, 0)).toThrow(RangeError);
    expect(() => passAtKEstimate(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtKEstimate(3, 1, 1.5)).toThrow(RangeError);
  });

  it('prints k = 1, then 5 and 10 when there are that many samples', () => {
    expect(reportedKs(1)).toEqual([1]);
    expect(reportedKs(4)).toEqual([1]);
    expect(reportedKs(5)).toEqual([1, 5]);
    expect(reportedKs(12)).toEqual([1, 5, 10]);
    expect(curveKs(4)).toEqual([1, 2, 3, 4]);
  });
});

let index = 0;
const indexOf = new Map<string, number>();
function r(id: string, language: LanguageId, sample: number, turn: number, verdict: Verdict, difficulty = 'easy'): AttemptResult {
  if (!indexOf.has(id)) indexOf.set(id, index++);
  return {
    id, index: indexOf.get(id)!, language, difficulty, answer: 'a', extractedCode: 'c', extraction: 'x',
    demo: null, full: null, verdict, durationMs: 1, sample, turn,
  };
}

describe('pass@k over results', () => {
  // A (python, easy): samples passed, failed, failed, passed, failed → n=5, c=2.
  // B (python, hard): failed ×3, infra_error, failed → n=4, c=0.
  // C (javascript, easy): 5 passed → n=5, c=5.
  // U (javascript): unsupported → not counted, not left out.
  const results = [
    ...(['passed', 'failed', 'failed', 'passed', 'failed'] as Verdict[]).map((v, s) => r('A', 'python', s, 1, v)),
    ...(['failed', 'failed', 'failed', 'infra_error', 'failed'] as Verdict[]).map((v, s) => r('B', 'python', s, 1, v, 'hard')),
    ...[0, 1, 2, 3, 4].map((s) => r('C', 'javascript', s, 1, 'passed')),
    ...[0, 1, 2, 3, 4].map((s) => r('U', 'javascript', s, 1, 'unsupported')),
  ];

  it('pass@1 is the mean over problems of c/n, INFRA_ERROR samples out of n', () => {
    const p = passAtK(results, 1);
    expect(p.value).toBeCloseTo((0.4 + 0 + 1) / 3, 12);
    expect(p.problems).toBe(3);
    expect(p.leftOut).toBe(0);
    expect(p.perLanguage).toEqual([
      { language: 'javascript', k: 1, value: 1, problems: 1, leftOut: 0 },
      { language: 'python', k: 1, value: expect.closeTo(0.2, 12), problems: 2, leftOut: 0 },
    ]);
    expect(p.perDifficulty.map((d) => [d.difficulty, d.value])).toEqual([['easy', expect.closeTo(0.7, 12)], ['hard', 0]]);
    expect(formatPassAtK(p)).toBe('pass@1: 46.7%');
  });

  it('a problem left with n < k is left out of pass@k and counted', () => {
    const p = passAtK(results, 5);
    expect(p.value).toBe(1); // A: n − c = 3 < 5 → 1; C → 1; B left out (n = 4)
    expect(p.problems).toBe(2);
    expect(p.leftOut).toBe(1);
    const two = passAtK(results, 2);
    // A: 1 − C(3,2)/C(5,2) = 0.7; B: 0; C: 1
    expect(two.value).toBeCloseTo((0.7 + 0 + 1) / 3, 12);
  });

  it('with several turns, a sample passes if any of its turns passed (by default: after the last turn)', () => {
    const multi = [
      r('P', 'python', 0, 1, 'failed'), r('P', 'python', 0, 2, 'passed'),
      r('P', 'python', 1, 1, 'failed'), r('P', 'python', 1, 2, 'failed'),
    ];
    expect(passAtK(multi, 1).value).toBe(0.5);
    expect(passAtK(multi, 1, { turn: 1 }).value).toBe(0);
  });
});

describe('Pass@1 after each turn', () => {
  // Sample 0 chains: A fails, then passes at turn 2; B fails three times; C passes at once;
  // D fails, then its turn 2 could not be evaluated; E's sample 1 passing does not count.
  const results = [
    r('TA', 'python', 0, 1, 'failed'), r('TA', 'python', 0, 2, 'passed'),
    r('TB', 'python', 0, 1, 'failed'), r('TB', 'python', 0, 2, 'failed'), r('TB', 'python', 0, 3, 'failed'),
    r('TC', 'javascript', 0, 1, 'passed'),
    r('TD', 'javascript', 0, 1, 'failed'), r('TD', 'javascript', 0, 2, 'infra_error'),
    r('TE', 'typescript', 0, 1, 'failed'), r('TE', 'typescript', 0, 2, 'failed'), r('TE', 'typescript', 0, 3, 'failed'), r('TE', 'typescript', 1, 1, 'passed'),
  ];

  it('is the share of problems whose sample 0 passed at some turn ≤ t', () => {
    const { overall, perLanguage } = pass1ByTurn(results, 3);
    // turn 1: C of A B C D E; turn 2: A C of A B C E (D undecided); turn 3: the same.
    expect(overall).toEqual([
      { turn: 1, passed: 1, total: 5, pass1: 0.2 },
      { turn: 2, passed: 2, total: 4, pass1: 0.5 },
      { turn: 3, passed: 2, total: 4, pass1: 0.5 },
    ]);
    expect(perLanguage.find((l) => l.language === 'python')!.turns.map((t) => t.pass1)).toEqual([0, 0.5, 0.5]);
    expect(overall.map(formatTurn)).toEqual(['Pass@1 after turn 1: 20.0%', 'Pass@1 after turn 2: 50.0%', 'Pass@1 after turn 3: 50.0%']);
  });

  it('turn 1 equals the single-attempt Pass@1 of sample 0', () => {
    const first = firstAttempts(results);
    expect(first.map((x) => x.id)).toEqual(['TA', 'TB', 'TC', 'TD', 'TE']);
    expect(first.filter((x) => x.verdict === 'passed').length / first.length).toBe(pass1ByTurn(results, 1).overall[0]!.pass1);
  });

  it('reads one chain at a turn', () => {
    const chain = results.filter((x) => x.id === 'TA');
    expect(sampleVerdictAt(chain, 1)).toBe('failed');
    expect(sampleVerdictAt(chain, 2)).toBe('passed');
    expect(sampleVerdictAt(results.filter((x) => x.id === 'TD'), 2)).toBe('excluded');
    // A chain of a one-turn run stays failed at later turns; a gap in the turns is undecided.
    expect(sampleVerdictAt([r('G', 'python', 0, 1, 'failed')], 3)).toBe('failed');
    expect(sampleVerdictAt([r('H', 'python', 0, 2, 'passed')], 2)).toBe('excluded');
    expect(sampleVerdictAt([], 1)).toBe('excluded');
  });
});

describe('pass@k intervals per language (bootstrap over each language\'s problems)', () => {
  // A (python): n=5, c=2 → pass@1 0.4, pass@5 1. B (python): n=4 (one infra_error), c=0 → pass@1 0;
  // too few samples for pass@5. C (javascript): 5 of 5 → 1. U: unsupported, not counted.
  const results = [
    ...(['passed', 'failed', 'failed', 'passed', 'failed'] as Verdict[]).map((v, s) => r('PA', 'python', s, 1, v)),
    ...(['failed', 'failed', 'failed', 'infra_error', 'failed'] as Verdict[]).map((v, s) => r('PB', 'python', s, 1, v)),
    ...[0, 1, 2, 3, 4].map((s) => r('PC', 'javascript', s, 1, 'passed')),
    ...[0, 1, 2, 3, 4].map((s) => r('PU', 'javascript', s, 1, 'unsupported')),
  ];

  it('spans the resampled means of each language\'s values', () => {
    const k1 = passAtKIntervals(results, 1);
    // Python's values are 0.4 and 0: a resample of both is 0 or 0.4 with chance 1/4 each, far
    // beyond the 2.5% tails, so the interval is exactly 0–0.4.
    expect(formatRange(k1.perLanguage.get('python')!)).toBe('0.0–40.0%');
    // JavaScript has one counted problem that always passes (U is not counted).
    expect(formatRange(k1.perLanguage.get('javascript')!)).toBe('100.0–100.0%');
    // The overall interval is the one the `95% CI of pass@1` line prints.
    const line = uncertainty(results, { ks: [1] }).passk[0]!;
    expect(k1.overall).toMatchObject({ low: line.low, high: line.high });
    expect(k1.overall.low).toBeLessThanOrEqual(1.4 / 3);
    expect(k1.overall.high).toBeGreaterThanOrEqual(1.4 / 3);
    // pass@5: B has 4 counted samples and is left out; A and C both reach 1.
    expect(formatRange(passAtKIntervals(results, 5).perLanguage.get('python')!)).toBe('100.0–100.0%');
  });
});
