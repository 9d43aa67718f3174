/**
 * Two runs side by side: Pass@1 overall and per language, which common problems changed, and the
 * paired difference on the problems both counted, with an exact McNemar test (src/core/stats.ts).
 */
import type { LanguageId } from '../../contracts';
import { summarize, type ScoreLine } from '../../core/metrics';
import type { AttemptResult } from '../../core/results';
import { pairedDifference, type PairedDifference } from '../../core/stats';

export interface LanguageDelta {
  language: LanguageId;
  a: ScoreLine | undefined;
  b: ScoreLine | undefined;
  /** B's Pass@1 minus A's, in percentage points; null when either has nothing counted. */
  delta: number | null;
  /** On the problems of this language both runs counted. */
  paired: PairedDifference;
}

export interface Comparison {
  overall: { a: ScoreLine; b: ScoreLine; delta: number | null; paired: PairedDifference };
  languages: LanguageDelta[];
  /** Problems both runs evaluated (and counted). */
  common: number;
  /** Failed in A, passed in B. */
  fixed: number;
  /** Passed in A, failed in B. */
  broken: number;
}

const points = (a: ScoreLine | undefined, b: ScoreLine | undefined): number | null =>
  a && b && a.total && b.total ? (b.pass1 - a.pass1) * 100 : null;

const counted = (r: AttemptResult) => r.verdict === 'passed' || r.verdict === 'failed';

/**
 * The paired difference of B against A on the problems (by id) both counted; `a` and `b` are
 * first attempts. `language` narrows it to one language.
 */
export function pairedRuns(a: readonly AttemptResult[], b: readonly AttemptResult[], language?: LanguageId): PairedDifference {
  const byId = new Map(a.filter((r) => counted(r) && (!language || r.language === language)).map((r) => [r.id, r]));
  const pairs: Array<[boolean, boolean]> = [];
  for (const rb of b) {
    const ra = byId.get(rb.id);
    if (ra && counted(rb)) pairs.push([ra.verdict === 'passed', rb.verdict === 'passed']);
  }
  return pairedDifference(pairs);
}

export function compareResults(a: readonly AttemptResult[], b: readonly AttemptResult[]): Comparison {
  const sa = summarize(a);
  const sb = summarize(b);
  const languages = [...new Set([...sa.perLanguage, ...sb.perLanguage].map((l) => l.language))].sort();
  const byId = new Map(a.filter(counted).map((r) => [r.id, r]));
  let common = 0;
  let fixed = 0;
  let broken = 0;
  for (const rb of b) {
    const ra = byId.get(rb.id);
    if (!ra || !counted(rb)) continue;
    common++;
    if (ra.verdict === 'failed' && rb.verdict === 'passed') fixed++;
    if (ra.verdict === 'passed' && rb.verdict === 'failed') broken++;
  }
  return {
    overall: { a: sa, b: sb, delta: points(sa, sb), paired: pairedRuns(a, b) },
    languages: languages.map((language) => {
      const la = sa.perLanguage.find((l) => l.language === language);
      const lb = sb.perLanguage.find((l) => l.language === language);
      return { language, a: la, b: lb, delta: points(la, lb), paired: pairedRuns(a, b, language) };
    }),
    common,
    fixed,
    broken,
  };
}

/** "+12.5 pp", "−3.0 pp", "0.0 pp", "–". */
export function formatDelta(delta: number | null): string {
  if (delta === null) return '–';
  const rounded = Math.round(delta * 10) / 10;
  if (rounded === 0) return '0.0 pp';
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)} pp`;
}

/**
 * The paired difference in compact form: "+8.3 pp (−1.2 to +17.8) p = 0.11"; "–" when no
 * problem is shared.
 */
export function formatPaired(d: PairedDifference): string {
  if (!d.shared) return '–';
  const pp = (v: number) => formatDelta(v * 100).replace(' pp', '');
  const p = d.pValue < 0.001 ? '< 0.001' : `= ${d.pValue.toFixed(d.pValue < 0.01 ? 3 : 2)}`;
  return `${formatDelta(d.difference * 100)} (${pp(d.low)} to ${pp(d.high)}) p ${p}`;
}
