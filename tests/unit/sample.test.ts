/**
 * Seeded stratified subsets (src/core/sample.ts), and the simulation the issue asks for: drawing
 * K per language from a synthetic full set many times, the stated 95% interval of the
 * full-benchmark estimate covers the full set's Pass@1 in 93–97% of draws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LanguageId, Problem } from '../../src/contracts';
import type { AttemptResult } from '../../src/core/results';
import { samplePerStratum } from '../../src/core/sample';
import { seededRandom } from '../../src/core/stats';
import { fullSetEstimate } from '../../src/core/uncertainty';

const problem = (id: string, language: string, difficulty = 'easy', index = 0): Problem =>
  ({ id, index, line: index + 1, language: language as LanguageId, difficulty, record: {} as Problem['record'] });

/** A synthetic file: `languages` strata of uneven sizes, listed language by language as the official files are. */
function syntheticSet(seed: number, languages = 20) {
  const random = seededRandom(seed);
  const problems: Problem[] = [];
  const passes = new Map<string, boolean>();
  for (let l = 0; l < languages; l++) {
    const size = 120 + Math.floor(random() * 150);
    const rate = 0.1 + 0.8 * random();
    for (let i = 0; i < size; i++) {
      const id = `l${l}-${i}`;
      problems.push(problem(id, `l${l}`, ['easy', 'medium', 'hard'][i % 3], problems.length));
      passes.set(id, random() < rate);
    }
  }
  return { problems, passes };
}

const resultOf = (p: Problem, passed: boolean): AttemptResult => ({
  id: p.id, index: p.index, language: p.language, difficulty: p.difficulty, answer: '', extractedCode: '', extraction: '',
  demo: null, full: null, verdict: passed ? 'passed' : 'failed', durationMs: 0,
});

describe('seeded stratified sample', () => {
  const { problems } = syntheticSet(5, 6);

  it('takes K from each language (all of a smaller one), in file order, the same for the same seed', () => {
    const small = [...problems, problem('x-0', 'tiny', 'easy', 9999), problem('x-1', 'tiny', 'hard', 10000)];
    const a = samplePerStratum(small, { perStratum: 10, seed: 1, byDifficulty: false });
    const counts = new Map<string, number>();
    for (const p of a.problems) counts.set(p.language, (counts.get(p.language) ?? 0) + 1);
    expect([...counts.values()]).toEqual([10, 10, 10, 10, 10, 10, 2]);
    expect(a.problems.map((p) => p.index)).toEqual([...a.problems.map((p) => p.index)].sort((x, y) => x - y));
    expect(a.plan.ids).toEqual(a.problems.map((p) => p.id));
    expect(a.plan.population.tiny).toBe(2);
    expect(samplePerStratum(small, { perStratum: 10, seed: 1, byDifficulty: false }).plan.ids).toEqual(a.plan.ids);
    expect(samplePerStratum(small, { perStratum: 10, seed: 2, byDifficulty: false }).plan.ids).not.toEqual(a.plan.ids);
  });

  it('a language draws the same problems whatever other languages are in the file', () => {
    const all = samplePerStratum(problems, { perStratum: 7, seed: 3, byDifficulty: false }).plan.ids.filter((id) => id.startsWith('l2-'));
    const one = samplePerStratum(problems.filter((p) => (p.language as string) === 'l2'), { perStratum: 7, seed: 3, byDifficulty: false }).plan.ids;
    expect(one).toEqual(all);
  });

  it('per difficulty: K from each language × difficulty', () => {
    const { plan } = samplePerStratum(problems, { perStratum: 4, seed: 9, byDifficulty: true });
    expect(Object.keys(plan.population)).toHaveLength(18);
    expect(plan.ids).toHaveLength(18 * 4);
  });

  it('never repeats a problem and never exceeds K per stratum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer(), fc.boolean(), (k, seed, byDifficulty) => {
        const { plan } = samplePerStratum(problems, { perStratum: k, seed, byDifficulty });
        expect(new Set(plan.ids).size).toBe(plan.ids.length);
        const expected = Object.values(plan.population).reduce((s, n) => s + Math.min(n, k), 0);
        expect(plan.ids).toHaveLength(expected);
      }),
      { numRuns: 40 },
    );
  });

  it('each problem is about equally likely to be drawn (K = 10 of a stratum of 40, 4000 seeds)', () => {
    const stratum = Array.from({ length: 40 }, (_, i) => problem(`p${i}`, 'python', 'easy', i));
    const hits = new Array(40).fill(0);
    for (let seed = 0; seed < 4000; seed++) for (const p of samplePerStratum(stratum, { perStratum: 10, seed, byDifficulty: false }).problems) hits[p.index]++;
    // Expected 1000 each; binomial sd ≈ 27, so ±120 is more than 4 sd.
    for (const h of hits) expect(Math.abs(h - 1000)).toBeLessThan(120);
  });
});

describe('simulation: coverage of the full-benchmark estimate', () => {
  const { problems, passes } = syntheticSet(42);
  const truth = [...passes.values()].filter(Boolean).length / problems.length;

  it.each([5, 20])('K = %i per language: the 95 percent interval covers the full set Pass@1 in 93 to 97 percent of 2000 draws', (k) => {
    let covered = 0;
    const draws = 2000;
    for (let seed = 1; seed <= draws; seed++) {
      const { problems: chosen, plan } = samplePerStratum(problems, { perStratum: k, seed, byDifficulty: false });
      const e = fullSetEstimate(chosen.map((p) => resultOf(p, passes.get(p.id)!)), plan);
      if (e.low <= truth && truth <= e.high) covered++;
    }
    expect(covered / draws).toBeGreaterThanOrEqual(0.93);
    expect(covered / draws).toBeLessThanOrEqual(0.97);
  });
});
