/** Pass@1, overall and per language (micro average, SPEC §4). */
import type { LanguageId } from '../contracts';
import { problemOutcome, type AttemptResult } from './results';

export interface ScoreLine {
  /** Problems that count: infra errors and unsupported languages are excluded. */
  total: number;
  passed: number;
  /** passed / total as a fraction in [0, 1]; NaN when total is 0. */
  pass1: number;
  infraErrors: number;
  unsupported: number;
  /** How many problems ended with each outcome (the first failing run's outcome). */
  outcomes: Record<string, number>;
}

export interface Summary extends ScoreLine {
  perLanguage: Array<ScoreLine & { language: LanguageId }>;
}

function score(results: readonly AttemptResult[]): ScoreLine {
  const line: ScoreLine = { total: 0, passed: 0, pass1: NaN, infraErrors: 0, unsupported: 0, outcomes: {} };
  for (const r of results) {
    const outcome = problemOutcome(r);
    line.outcomes[outcome] = (line.outcomes[outcome] ?? 0) + 1;
    if (r.verdict === 'infra_error') line.infraErrors++;
    else if (r.verdict === 'unsupported') line.unsupported++;
    else {
      line.total++;
      if (r.verdict === 'passed') line.passed++;
    }
  }
  line.pass1 = line.total ? line.passed / line.total : NaN;
  return line;
}

export function summarize(results: readonly AttemptResult[]): Summary {
  const byLanguage = new Map<LanguageId, AttemptResult[]>();
  for (const r of results) {
    const list = byLanguage.get(r.language) ?? [];
    list.push(r);
    byLanguage.set(r.language, list);
  }
  const perLanguage = [...byLanguage.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([language, list]) => ({ language, ...score(list) }));
  return { ...score(results), perLanguage };
}

/** "62.5%" with one decimal, "–" when nothing counted. */
export function formatPercent(fraction: number): string {
  return Number.isNaN(fraction) ? '–' : `${(fraction * 100).toFixed(1)}%`;
}

/** The headline line printed last by the CLI and shown by the app: `Pass@1: 62.5% (15/24)`. */
export function formatPass1(line: Pick<ScoreLine, 'pass1' | 'passed' | 'total'>): string {
  return `Pass@1: ${formatPercent(line.pass1)} (${line.passed}/${line.total})`;
}
