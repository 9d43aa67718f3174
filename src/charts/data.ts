/**
 * What the charts show, computed from a run's results: one plain object, the same in the page
 * and in the CLI (src/charts/plots.ts draws it).
 */
import { byDifficulty } from '../core/breakdown';
import { LANGUAGE_NAMES, type LanguageId } from '../core/languages';
import { summarize } from '../core/metrics';
import { curveKs, firstAttempts, pass1ByTurn, passAtK, type TurnLine } from '../core/passk';
import type { ProblemResult } from '../core/results';

export interface ChartData {
  /** Drawn above every chart, e.g. "replay:demo-answers-multi.jsonl on demo.jsonl". */
  title: string;
  /** Pass@1 (first attempts) per language with problems that counted. */
  languages: Array<{ language: LanguageId; label: string; pass1: number; passed: number; total: number }>;
  /** Overall Pass@1 (first attempts): the line across the language bars. */
  overall: number;
  difficulty: Array<{ difficulty: string; pass1: number; passed: number; total: number }>;
  /** Pass@1 after each turn (one point when the run had one turn). */
  turns: TurnLine[];
  /** pass@k for k = 1 … samples (sample verdicts after the last turn). */
  passk: Array<{ k: number; value: number }>;
}

export function chartData(results: readonly ProblemResult[], options: { title: string; samples: number; turns: number }): ChartData {
  const first = summarize(firstAttempts(results));
  return {
    title: options.title,
    languages: first.perLanguage
      .filter((l) => l.total > 0)
      .map((l) => ({ language: l.language, label: LANGUAGE_NAMES[l.language], pass1: l.pass1, passed: l.passed, total: l.total })),
    overall: first.pass1,
    difficulty: byDifficulty(results)
      .filter((d) => d.total > 0)
      .map((d) => ({ difficulty: d.key, pass1: d.pass1, passed: d.passed, total: d.total })),
    turns: pass1ByTurn(results, options.turns).overall,
    passk: curveKs(options.samples).map((k) => ({ k, value: passAtK(results, k, { turn: options.turns }).value })),
  };
}
