/**
 * Breakdowns of a run's first attempts (sample 0, turn 1: the official single-attempt figure):
 * per language, per difficulty, per outcome, and a subset (Lite) against the rest.
 *
 * Records carry no Lite flag: membership comes from a second dataset (the problem ids of
 * autocodebench_lite.jsonl; ids are hashes of language and question, equal in every copy).
 */
import { LANGUAGE_NAMES } from '../contracts';
import { summarize, type ScoreLine } from './metrics';
import { compareDifficulty, firstAttempts } from './passk';
import type { AttemptResult } from './results';

export interface BreakdownRow extends ScoreLine {
  key: string;
  label: string;
}

/** The report's outcome order. */
export const OUTCOME_ORDER = ['PASSED', 'WRONG_ANSWER', 'RUNTIME_ERROR', 'TIME_LIMIT_EXCEEDED', 'COMPILATION_ERROR', 'SYNTAX_ERROR', 'INTERNAL_ERROR', 'INFRA_ERROR', 'UNSUPPORTED'];

function rowsBy(results: readonly AttemptResult[], keyOf: (r: AttemptResult) => string, labelOf: (key: string) => string, order: (a: string, b: string) => number): BreakdownRow[] {
  const groups = new Map<string, AttemptResult[]>();
  for (const r of firstAttempts(results)) {
    const key = keyOf(r);
    const list = groups.get(key) ?? [];
    list.push(r);
    groups.set(key, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => order(a, b))
    .map(([key, list]) => {
      const { perLanguage: _, ...line } = summarize(list);
      return { key, label: labelOf(key), ...line };
    });
}

export function byLanguage(results: readonly AttemptResult[]): BreakdownRow[] {
  return rowsBy(results, (r) => r.language, (k) => LANGUAGE_NAMES[k as keyof typeof LANGUAGE_NAMES] ?? k, (a, b) => a.localeCompare(b));
}

export function byDifficulty(results: readonly AttemptResult[]): BreakdownRow[] {
  return rowsBy(results, (r) => r.difficulty, (k) => k, compareDifficulty);
}

/** How many first attempts ended with each outcome, in the report's order. */
export function byOutcome(results: readonly AttemptResult[]): Array<{ outcome: string; count: number }> {
  const { outcomes } = summarize(firstAttempts(results));
  const known = OUTCOME_ORDER.filter((o) => outcomes[o]).map((outcome) => ({ outcome, count: outcomes[outcome]! }));
  const other = Object.keys(outcomes).filter((o) => !OUTCOME_ORDER.includes(o)).sort().map((outcome) => ({ outcome, count: outcomes[outcome]! }));
  return [...known, ...other];
}

/** Problems in `members` (by id) against the others, e.g. Lite vs the rest of the full set. */
export function bySubset(results: readonly AttemptResult[], members: ReadonlySet<string>, names: [string, string] = ['Lite', 'not in Lite']): BreakdownRow[] {
  return rowsBy(results, (r) => (members.has(r.id) ? 'in' : 'out'), (k) => (k === 'in' ? names[0] : names[1]), (a, b) => (a === b ? 0 : a === 'in' ? -1 : 1));
}
