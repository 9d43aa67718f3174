/**
 * What the charts show, computed from a run's results: one plain object, the same in the page
 * and in the CLI (src/charts/plots.ts draws it), every figure with its 95% interval.
 */
import { byDifficulty } from '../core/breakdown';
import { LANGUAGE_NAMES, type LanguageId } from '../contracts';
import { summarize } from '../core/metrics';
import { curveKs, firstAttempts, pass1ByTurn, type TurnLine } from '../core/passk';
import type { AttemptResult } from '../core/results';
import { wilson } from '../core/stats';
import { uncertainty } from '../core/uncertainty';

/** A figure's 95% interval (fractions; NaN when there is none), drawn as an error bar. */
export interface Bounds {
  low: number;
  high: number;
}

export interface ChartData {
  /** Drawn above every chart, e.g. "replay:demo-answers-multi.jsonl on demo.jsonl". */
  title: string;
  /** Pass@1 (first attempts) per language with problems that counted. */
  languages: Array<{ language: LanguageId; label: string; pass1: number; passed: number; total: number } & Bounds>;
  /** Overall Pass@1 (first attempts): the line across the language bars. */
  overall: number;
  difficulty: Array<{ difficulty: string; pass1: number; passed: number; total: number } & Bounds>;
  /** Pass@1 after each turn (one point when the run had one turn), with its Wilson interval. */
  turns: Array<TurnLine & Bounds>;
  /** pass@k for k = 1 … samples (sample verdicts after the last turn), with its bootstrap interval. */
  passk: Array<{ k: number; value: number } & Bounds>;
}

/**
 * `passk: false` leaves the pass@k curve empty: its bootstrap (2,000 resamples of every problem) is
 * most of the cost, and the page shows that chart only for runs with more than one sample.
 */
export function chartData(results: readonly AttemptResult[], options: { title: string; samples: number; turns: number; passk?: boolean }): ChartData {
  const first = summarize(firstAttempts(results));
  return {
    title: options.title,
    languages: first.perLanguage
      .filter((l) => l.total > 0)
      .map((l) => ({ language: l.language, label: LANGUAGE_NAMES[l.language], pass1: l.pass1, passed: l.passed, total: l.total, ...wilson(l.passed, l.total) })),
    overall: first.pass1,
    difficulty: byDifficulty(results)
      .filter((d) => d.total > 0)
      .map((d) => ({ difficulty: d.key, pass1: d.pass1, passed: d.passed, total: d.total, ...wilson(d.passed, d.total) })),
    turns: pass1ByTurn(results, options.turns).overall.map((t) => ({ ...t, ...wilson(t.passed, t.total) })),
    // The same bootstrap (seed, resamples) as the printed pass@k intervals.
    passk: options.passk === false ? [] : uncertainty(results, { ks: curveKs(options.samples), turn: options.turns }).passk.map((p) => ({ k: p.k, value: p.value, low: p.low, high: p.high })),
  };
}
