/**
 * The uncertainty of a run's figures, computed and worded once for the CLI and the page: the
 * Wilson interval of Pass@1, the full-benchmark estimate of a stratified subset, and bootstrap
 * intervals for pass@k. Formulas in ./stats.ts.
 */
import type { LanguageId } from '../contracts';
import { summarize } from './metrics';
import { firstAttempts, passAtKValues } from './passk';
import type { AttemptResult } from './results';
import { stratumKey, type SubsetPlan } from './sample';
import { bootstrapMean, stratifiedEstimate, wilson, Z95, type Interval, type StratifiedEstimate } from './stats';

/** Resamples of the pass@k bootstrap, and its fixed seed (the interval is part of the record). */
export const BOOTSTRAP_RESAMPLES = 2000;
export const BOOTSTRAP_SEED = 1;

export interface Pass1Interval extends Interval {
  passed: number;
  total: number;
  value: number;
}

export interface Uncertainty {
  pass1: Pass1Interval;
  /** Only for a stratified subset. */
  estimate?: StratifiedEstimate & { strata: number; population: number };
  passk: Array<Interval & { k: number; value: number; problems: number }>;
}

/** "36.3–45.9%"; "–" when there is no interval. */
export function formatRange(interval: Interval): string {
  if (Number.isNaN(interval.low) || Number.isNaN(interval.high)) return '–';
  return `${(interval.low * 100).toFixed(1)}–${(interval.high * 100).toFixed(1)}%`;
}

/** Pass@1 (sample 0, turn 1) with its Wilson interval. */
export function pass1Interval(results: readonly AttemptResult[]): Pass1Interval {
  const s = summarize(firstAttempts(results));
  return { passed: s.passed, total: s.total, value: s.pass1, ...wilson(s.passed, s.total) };
}

/** The full file's Pass@1 estimated from a stratified subset's first attempts. */
export function fullSetEstimate(results: readonly AttemptResult[], plan: SubsetPlan): StratifiedEstimate & { strata: number; population: number } {
  const counts = new Map<string, { passed: number; total: number }>();
  for (const r of firstAttempts(results)) {
    if (r.verdict !== 'passed' && r.verdict !== 'failed') continue;
    const key = stratumKey(r, plan.byDifficulty);
    const c = counts.get(key) ?? { passed: 0, total: 0 };
    c.total++;
    if (r.verdict === 'passed') c.passed++;
    counts.set(key, c);
  }
  const strata = Object.entries(plan.population).map(([key, population]) => ({ key, population, passed: counts.get(key)?.passed ?? 0, total: counts.get(key)?.total ?? 0 }));
  const estimate = stratifiedEstimate(strata);
  return { ...estimate, strata: strata.length, population: strata.reduce((sum, s) => sum + s.population, 0) };
}

export function uncertainty(results: readonly AttemptResult[], options: { plan?: SubsetPlan; ks?: readonly number[]; turn?: number } = {}): Uncertainty {
  return {
    pass1: pass1Interval(results),
    ...(options.plan ? { estimate: fullSetEstimate(results, options.plan) } : {}),
    passk: (options.ks ?? []).map((k) => passAtKInterval(results, k, options.turn)),
  };
}

/** pass@k over these results' problems with its percentile bootstrap interval (resampling problems). */
function passAtKInterval(results: readonly AttemptResult[], k: number, turn?: number): Interval & { k: number; value: number; problems: number } {
  const values = passAtKValues(results, k, turn);
  const value = values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
  return { k, value, problems: values.length, ...bootstrapMean(values, { resamples: BOOTSTRAP_RESAMPLES, seed: BOOTSTRAP_SEED }) };
}

/**
 * pass@k's bootstrap interval overall and per language (each over that language's problems, same
 * resamples and seed), for the per-language tables of the CLI and the page.
 */
export function passAtKIntervals(results: readonly AttemptResult[], k: number, turn?: number): { k: number; overall: Interval; perLanguage: Map<LanguageId, Interval> } {
  const byLanguage = new Map<LanguageId, AttemptResult[]>();
  for (const r of results) byLanguage.set(r.language, [...(byLanguage.get(r.language) ?? []), r]);
  return {
    k,
    overall: passAtKInterval(results, k, turn),
    perLanguage: new Map([...byLanguage].map(([language, own]) => [language, passAtKInterval(own, k, turn)])),
  };
}

const pct = (v: number) => (Number.isNaN(v) ? '–' : `${(v * 100).toFixed(1)}%`);

/**
 * The lines printed before the headline (CLI) and under it (page), e.g.
 * `Pass@1 on this subset 41.0% (95% CI 36.3–45.9%); full-benchmark estimate 39.2% ± 4.1`.
 */
export function uncertaintyLines(u: Uncertainty, plan?: SubsetPlan): string[] {
  const lines: string[] = [];
  const ci = `95% CI ${formatRange(u.pass1)}`;
  if (u.estimate && plan) {
    const e = u.estimate;
    const estimate = Number.isNaN(e.value) ? 'full-benchmark estimate –' : `full-benchmark estimate ${pct(e.value)} ± ${(Z95 * e.se * 100).toFixed(1)}`;
    lines.push(`Pass@1 on this subset ${pct(u.pass1.value)} (${ci}); ${estimate}`);
    const per = plan.byDifficulty ? 'language and difficulty' : 'language';
    const strata = plan.byDifficulty ? 'strata' : 'languages';
    const leftOut = e.leftOut.length ? `; ${e.leftOut.length} of ${e.strata} ${strata} had no counted result here and are left out of the estimate` : '';
    lines.push(`subset: ${plan.perStratum} per ${per}, seed ${plan.seed}, ${plan.ids.length} of ${e.population} problems; estimate ± = 95% interval, ${strata} weighted by their share of the file${leftOut}`);
  } else {
    lines.push(`Pass@1 ${ci} (Wilson score, ${u.pass1.passed}/${u.pass1.total})`);
  }
  for (const p of u.passk) lines.push(`95% CI of pass@${p.k}: ${formatRange(p)} (bootstrap over ${p.problems} problems)`);
  return lines;
}
