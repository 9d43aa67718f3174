/**
 * How far a figure can be trusted: pure functions shared by the page and the CLI.
 *
 * - Wilson score interval for a proportion (Wilson 1927; Newcombe 1998, method 3).
 * - Stratified estimate of the full benchmark's Pass@1 from a sample drawn per stratum (language):
 *   strata weighted by their share of the full file, variance with the finite population
 *   correction (Cochran, Sampling Techniques, ch. 5).
 * - Percentile bootstrap interval for a mean over problems (pass@k), with a seeded PRNG so the
 *   same results always print the same interval.
 * - Paired difference of two runs on their shared problems, with a Wald interval for paired
 *   proportions and the exact (binomial) McNemar test.
 */

/** The 0.975 quantile of the standard normal distribution. */
export const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

const NO_INTERVAL: Interval = { low: NaN, high: NaN };
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Wilson score interval for `passed` of `total`; NaN bounds when total is 0. */
export function wilson(passed: number, total: number, z = Z95): Interval {
  if (!(total > 0)) return NO_INTERVAL;
  if (passed < 0 || passed > total) throw new RangeError(`passed must be from 0 to total, got ${passed}/${total}`);
  const p = passed / total;
  const z2 = z * z;
  const denominator = 1 + z2 / total;
  const centre = (p + z2 / (2 * total)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total));
  // At 0 and n the exact bound is 0 or 1; rounding must not leave it a hair off.
  return { low: passed === 0 ? 0 : clamp01(centre - half), high: passed === total ? 1 : clamp01(centre + half) };
}

/** One stratum of a stratified sample: `passed` of `total` evaluated, out of `population` in the full file. */
export interface Stratum {
  key: string;
  passed: number;
  total: number;
  population: number;
}

export interface StratifiedEstimate {
  /** Σ W_h p_h over the strata that have results, W_h = N_h / N renormalised over those strata. */
  value: number;
  /** Standard error of `value`. */
  se: number;
  /** value ± z·se, clipped to [0, 1]. */
  low: number;
  high: number;
  /** Strata with nothing evaluated (left out of the estimate, their weight spread over the rest). */
  leftOut: string[];
}

/**
 * The full-file Pass@1 estimated from a stratified sample: p̂ = Σ W_h p_h, and
 * Var(p̂) = Σ W_h² (1 − n_h/N_h) s_h² / n_h with s_h² = n_h p_h (1 − p_h) / (n_h − 1), the
 * unbiased within-stratum variance of 0/1 outcomes (0 when n_h = 1 or the stratum was taken whole).
 */
export function stratifiedEstimate(strata: readonly Stratum[], z = Z95): StratifiedEstimate {
  const used = strata.filter((s) => s.total > 0);
  const leftOut = strata.filter((s) => !(s.total > 0)).map((s) => s.key);
  const population = used.reduce((sum, s) => sum + s.population, 0);
  if (!used.length || !(population > 0)) return { value: NaN, se: NaN, low: NaN, high: NaN, leftOut };
  let value = 0;
  let variance = 0;
  for (const s of used) {
    if (s.total > s.population) throw new RangeError(`stratum ${s.key}: ${s.total} evaluated of a population of ${s.population}`);
    const w = s.population / population;
    const p = s.passed / s.total;
    value += w * p;
    if (s.total > 1) {
      const s2 = (s.total * p * (1 - p)) / (s.total - 1);
      variance += w * w * (1 - s.total / s.population) * (s2 / s.total);
    }
  }
  const se = Math.sqrt(variance);
  return { value, se, low: clamp01(value - z * se), high: clamp01(value + z * se), leftOut };
}

/**
 * A small seeded PRNG (splitmix32 steps): the same seed gives the same sequence on every engine.
 * Returns floats in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
    x = (x ^ (x >>> 16)) >>> 0;
    return x / 4294967296;
  };
}

/** Percentile bootstrap interval for the mean of `values` (resampling the values with replacement). */
export function bootstrapMean(values: readonly number[], options: { resamples?: number; seed?: number; level?: number } = {}): Interval {
  const n = values.length;
  if (!n) return NO_INTERVAL;
  const resamples = options.resamples ?? 2000;
  const random = seededRandom(options.seed ?? 1);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)]!;
    means[b] = sum / n;
  }
  means.sort();
  const alpha = (1 - (options.level ?? 0.95)) / 2;
  // Nearest-rank percentiles.
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.ceil(q * resamples) - 1))]!;
  return { low: at(alpha), high: at(1 - alpha) };
}

/** log C(n, k) by summing logs (n is at most a few thousand problems here). */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}

/**
 * Exact two-sided McNemar test: with b and c the discordant pairs, p = min(1, 2·P(X ≤ min(b, c)))
 * for X ~ Binomial(b + c, ½). 1 when there is no discordant pair.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const m = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= m; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

export interface PairedDifference {
  /** Problems both runs counted. */
  shared: number;
  /** Passed in B only / passed in A only (McNemar's discordant pairs). */
  onlyB: number;
  onlyA: number;
  /** B's Pass@1 minus A's on the shared problems, as a fraction; NaN when none is shared. */
  difference: number;
  /** Wald interval for a difference of paired proportions, clipped to [−1, 1]. */
  low: number;
  high: number;
  /** Exact McNemar p-value. */
  pValue: number;
  /** pValue < 0.05. */
  significant: boolean;
}

/** The paired comparison of two runs from their verdicts on each shared problem. */
export function pairedDifference(pairs: Iterable<readonly [boolean, boolean]>, z = Z95): PairedDifference {
  let shared = 0;
  let onlyA = 0;
  let onlyB = 0;
  for (const [a, b] of pairs) {
    shared++;
    if (a && !b) onlyA++;
    if (b && !a) onlyB++;
  }
  const pValue = mcnemarExact(onlyA, onlyB);
  if (!shared) return { shared, onlyA, onlyB, difference: NaN, low: NaN, high: NaN, pValue, significant: false };
  const difference = (onlyB - onlyA) / shared;
  // Var(p̂_B − p̂_A) = [(b + c) − (b − c)²/n] / n².
  const se = Math.sqrt(Math.max(0, onlyA + onlyB - (onlyB - onlyA) ** 2 / shared)) / shared;
  const bound = (v: number) => Math.min(1, Math.max(-1, v));
  return { shared, onlyA, onlyB, difference, low: bound(difference - z * se), high: bound(difference + z * se), pValue, significant: pValue < 0.05 };
}

/**
 * Roughly how far the 95% interval reaches either side of Pass@1 for `n` problems, at p = 50%
 * (the widest case): z·√(0.25/n), with the finite population correction when the full file has
 * `population` problems.
 */
export function expectedHalfWidth(n: number, population?: number, z = Z95): number {
  if (!(n > 0)) return NaN;
  const fpc = population && population > 1 ? Math.max(0, (population - n) / (population - 1)) : 1;
  return z * Math.sqrt((0.25 / n) * fpc);
}
