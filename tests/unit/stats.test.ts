/**
 * The statistics of src/core/stats.ts against published and hand-computed values, property tests
 * (fast-check), and the stratified estimate's coverage by simulation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapMean, expectedHalfWidth, mcnemarExact, pairedDifference, seededRandom, stratifiedEstimate, wilson } from '../../src/core/stats';

describe('Wilson score interval', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Stat Med 17:857,
  // Table I, method 3 (score interval without continuity correction), to 4 decimals.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
    [29, 29, 0.883, 1],
  ])('%i/%i → %f–%f (Newcombe 1998)', (x, n, low, high) => {
    const ci = wilson(x, n);
    expect(ci.low).toBeCloseTo(low, 4);
    expect(ci.high).toBeCloseTo(high, 4);
  });

  it('no problems → no interval', () => {
    expect(wilson(0, 0).low).toBeNaN();
    expect(() => wilson(5, 4)).toThrow(RangeError);
  });

  it('contains the point estimate, stays in [0, 1], and narrows as n grows at the same rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, share) => {
        const x = Math.round(share * n);
        const ci = wilson(x, n);
        expect(ci.low).toBeGreaterThanOrEqual(0);
        expect(ci.high).toBeLessThanOrEqual(1);
        expect(ci.low).toBeLessThanOrEqual(x / n + 1e-12);
        expect(ci.high).toBeGreaterThanOrEqual(x / n - 1e-12);
        const wider = wilson(x * 4, n * 4);
        expect(wider.high - wider.low).toBeLessThan(ci.high - ci.low);
      }),
    );
  });
});

describe('exact McNemar test', () => {
  it.each([
    // b, c, by hand: 2·Σ_{i ≤ min} C(b+c, i) / 2^(b+c)
    [1, 9, (2 * (1 + 10)) / 1024],
    [9, 1, (2 * (1 + 10)) / 1024],
    [0, 5, 2 / 32],
    [5, 16, (2 * (1 + 21 + 210 + 1330 + 5985 + 20349)) / 2 ** 21],
    [3, 3, 1], // 2·P(X ≤ 3) for Binomial(6, ½) = 2·42/64 > 1
    [0, 0, 1],
  ])('b=%i, c=%i → p=%f', (b, c, p) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 12);
  });

  it('is symmetric and a p-value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }), (b, c) => {
        const p = mcnemarExact(b, c);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
        expect(mcnemarExact(c, b)).toBeCloseTo(p, 12);
      }),
    );
  });
});

describe('paired difference', () => {
  it('counts discordant pairs, and gives the Wald interval computed by hand', () => {
    // 20 shared problems: 10 pass in both, 2 only in A, 6 only in B, 2 in neither.
    const pairs: Array<[boolean, boolean]> = [
      ...Array(10).fill([true, true]), ...Array(2).fill([true, false]), ...Array(6).fill([false, true]), ...Array(2).fill([false, false]),
    ];
    const d = pairedDifference(pairs);
    expect(d).toMatchObject({ shared: 20, onlyA: 2, onlyB: 6 });
    expect(d.difference).toBeCloseTo(0.2, 12);
    // se = √(8 − 4²/20) / 20 = √7.2 / 20
    const se = Math.sqrt(7.2) / 20;
    expect(d.low).toBeCloseTo(0.2 - 1.959964 * se, 5);
    expect(d.high).toBeCloseTo(0.2 + 1.959964 * se, 5);
    // 2·(1 + 8 + 28)/256
    expect(d.pValue).toBeCloseTo(74 / 256, 12);
    expect(d.significant).toBe(false);
  });

  it('marks a one-sided run of 9 of 9 discordant pairs significant (p = 2/512)', () => {
    const d = pairedDifference([...Array(9).fill([false, true]), ...Array(30).fill([true, true])]);
    expect(d.pValue).toBeCloseTo(2 / 512, 12);
    expect(d.significant).toBe(true);
  });

  it('nothing shared: no difference, not significant', () => {
    const d = pairedDifference([]);
    expect(d.difference).toBeNaN();
    expect(d.significant).toBe(false);
  });

  it('the interval contains the difference and stays in [−1, 1]', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 300 }), (pairs) => {
        const d = pairedDifference(pairs);
        expect(d.low).toBeLessThanOrEqual(d.difference + 1e-12);
        expect(d.high).toBeGreaterThanOrEqual(d.difference - 1e-12);
        expect(d.low).toBeGreaterThanOrEqual(-1);
        expect(d.high).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('stratified estimate', () => {
  it('matches the estimate and variance computed by hand (Cochran, with the finite population correction)', () => {
    // A: N=100, n=10, 4 pass: W=1/3, p=0.4, s²=10·0.4·0.6/9. B: N=200, n=20, 15 pass: W=2/3, p=0.75, s²=20·0.75·0.25/19.
    const e = stratifiedEstimate([
      { key: 'a', population: 100, total: 10, passed: 4 },
      { key: 'b', population: 200, total: 20, passed: 15 },
    ]);
    expect(e.value).toBeCloseTo(0.4 / 3 + (0.75 * 2) / 3, 12);
    const variance = (1 / 9) * (1 - 10 / 100) * ((10 * 0.4 * 0.6) / 9 / 10) + (4 / 9) * (1 - 20 / 200) * ((20 * 0.75 * 0.25) / 19 / 20);
    expect(e.se).toBeCloseTo(Math.sqrt(variance), 12);
    expect(e.se).toBeCloseTo(0.081327, 5);
    expect(e.low).toBeCloseTo(e.value - 1.959964 * e.se, 5);
    expect(e.leftOut).toEqual([]);
  });

  it('a stratum taken whole adds no variance; a stratum with no result is left out and named', () => {
    const whole = stratifiedEstimate([{ key: 'a', population: 5, total: 5, passed: 2 }]);
    expect(whole.value).toBeCloseTo(0.4, 12);
    expect(whole.se).toBe(0);
    const e = stratifiedEstimate([
      { key: 'a', population: 50, total: 50, passed: 10 },
      { key: 'b', population: 100, total: 0, passed: 0 },
    ]);
    expect(e.value).toBeCloseTo(0.2, 12);
    expect(e.leftOut).toEqual(['b']);
  });

  it('with equal shares of one stratum each equals the plain proportion', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 500 }), fc.integer({ min: 0, max: 500 }), (n, x0) => {
        const x = x0 % (n + 1);
        const e = stratifiedEstimate([{ key: 'a', population: 10 * n, total: n, passed: x }]);
        expect(e.value).toBeCloseTo(x / n, 12);
        expect(e.low).toBeLessThanOrEqual(e.value);
        expect(e.high).toBeGreaterThanOrEqual(e.value);
      }),
    );
  });
});

describe('bootstrap interval', () => {
  it('is reproducible from its seed, and degenerate for constant values', () => {
    const values = Array.from({ length: 50 }, (_, i) => (i % 3) / 2);
    expect(bootstrapMean(values, { seed: 7 })).toEqual(bootstrapMean(values, { seed: 7 }));
    expect(bootstrapMean(Array(20).fill(0.25))).toEqual({ low: 0.25, high: 0.25 });
    expect(bootstrapMean([]).low).toBeNaN();
  });

  it('for 0/1 values agrees with the normal interval p ± 1.96·√(p(1−p)/n) at n = 400', () => {
    const values = Array.from({ length: 400 }, (_, i) => (i < 120 ? 1 : 0));
    const ci = bootstrapMean(values, { resamples: 4000, seed: 3 });
    const half = 1.959964 * Math.sqrt((0.3 * 0.7) / 400);
    expect(Math.abs(ci.low - (0.3 - half))).toBeLessThan(0.01);
    expect(Math.abs(ci.high - (0.3 + half))).toBeLessThan(0.01);
  });

  it('contains the mean', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 60 }), fc.integer(), (values, seed) => {
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        const ci = bootstrapMean(values, { resamples: 400, seed });
        // Percentile intervals can miss the mean of a skewed tiny sample; a 1/400 quantile step is allowed.
        expect(ci.low).toBeLessThanOrEqual(mean + 0.05);
        expect(ci.high).toBeGreaterThanOrEqual(mean - 0.05);
      }),
      { numRuns: 50 },
    );
  });
});

describe('seeded PRNG and expected width', () => {
  it('the same seed gives the same sequence, other seeds another; values are in [0, 1) and roughly uniform', () => {
    const a = seededRandom(12345);
    const b = seededRandom(12345);
    const c = seededRandom(12346);
    const xs = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 10 }, () => c())).not.toEqual(xs.slice(0, 10));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01); // sd of the mean ≈ 0.0029
  });

  it('expected half-width at p = 50%: 1.96·√(0.25/n), less with the finite population correction', () => {
    expect(expectedHalfWidth(100)).toBeCloseTo(0.098, 3);
    expect(expectedHalfWidth(400)).toBeCloseTo(0.049, 3);
    expect(expectedHalfWidth(200, 200)).toBe(0);
    expect(expectedHalfWidth(100, 3920)).toBeLessThan(expectedHalfWidth(100));
  });
});
