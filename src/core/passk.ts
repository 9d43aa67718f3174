/**
 * pass@k over several samples per problem, and Pass@1 after each refinement turn.
 *
 * pass@k is the unbiased estimator of Chen et al. 2021 ("Evaluating Large Language Models Trained
 * on Code"): for a problem with n samples of which c pass, 1 − C(n−c, k) / C(n, k), computed in
 * the numerically stable product form 1 − ∏_{i=n−c+1}^{n} (1 − k/i); the figure for a set of
 * problems is the mean over them. A sample passes only if both its demo and its full run pass;
 * samples that could not be evaluated (INFRA_ERROR) are left out of n, and a problem left with
 * n < k is left out of pass@k for that k (and counted in `leftOut`).
 */
import type { LanguageId } from '../contracts';
import { sampleOf, turnOf, type AttemptResult } from './results';

/** 1 − C(n−c, k) / C(n, k) for 1 ≤ k ≤ n, 0 ≤ c ≤ n. */
export function passAtKEstimate(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k)) throw new RangeError(`pass@k needs whole numbers, got n=${n}, c=${c}, k=${k}`);
  if (k < 1 || k > n) throw new RangeError(`pass@k is defined for 1 ≤ k ≤ n, got k=${k}, n=${n}`);
  if (c < 0 || c > n) throw new RangeError(`c must be from 0 to n, got c=${c}, n=${n}`);
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

export type SampleVerdict = 'passed' | 'failed' | 'excluded';

/**
 * One (problem, sample) chain (its turns in order) at turn t: passed if a turn ≤ t passed; failed
 * if every turn up to t failed, or the chain ended failing at its last turn before t; excluded if
 * a turn that could not be evaluated (INFRA_ERROR, unsupported) or a missing turn came first.
 */
export function sampleVerdictAt(chain: readonly AttemptResult[], turn: number): SampleVerdict {
  const sorted = [...chain].sort((a, b) => turnOf(a) - turnOf(b));
  let expected = 1;
  let last: AttemptResult | undefined;
  for (const r of sorted) {
    if (turnOf(r) > turn) break;
    if (turnOf(r) !== expected) return 'excluded';
    if (r.verdict === 'passed') return 'passed';
    if (r.verdict !== 'failed') return 'excluded';
    last = r;
    expected++;
  }
  if (!last) return 'excluded';
  if (turnOf(last) === turn) return 'failed';
  // The chain stopped failing before turn t: it ran out of turns (the run had fewer than t).
  return sorted.at(-1) === last ? 'failed' : 'excluded';
}

/** One problem's attempts: chains[sample] holds that sample's turns in order. */
export interface ProblemSamples {
  id: string;
  index: number;
  language: LanguageId;
  difficulty: string;
  chains: AttemptResult[][];
}

/** Groups results by problem (in order of first appearance) and sample. */
export function groupBySample(results: readonly AttemptResult[]): ProblemSamples[] {
  const byId = new Map<string, ProblemSamples>();
  for (const r of results) {
    let p = byId.get(r.id);
    if (!p) byId.set(r.id, (p = { id: r.id, index: r.index, language: r.language, difficulty: r.difficulty, chains: [] }));
    const s = sampleOf(r);
    (p.chains[s] ??= []).push(r);
  }
  for (const p of byId.values()) {
    for (let s = 0; s < p.chains.length; s++) p.chains[s] = (p.chains[s] ?? []).sort((a, b) => turnOf(a) - turnOf(b));
  }
  return [...byId.values()];
}

/** The highest turn present in the results (1 when none). */
export function lastTurn(results: readonly AttemptResult[]): number {
  return results.reduce((m, r) => Math.max(m, turnOf(r)), 1);
}

export interface PassAtKLine {
  k: number;
  /** Mean of the estimator over the counted problems; NaN when none counts. */
  value: number;
  /** Problems counted (n ≥ k). */
  problems: number;
  /** Problems left out: fewer than k samples remain once INFRA_ERROR samples are removed. */
  leftOut: number;
}

export interface PassAtK extends PassAtKLine {
  perLanguage: Array<PassAtKLine & { language: LanguageId }>;
  perDifficulty: Array<PassAtKLine & { difficulty: string }>;
}

/** n and c of one problem at a turn; `unsupported` when no sample could run here at all. */
function countSamples(p: ProblemSamples, turn: number): { n: number; c: number; unsupported: boolean } {
  let n = 0;
  let c = 0;
  let any = false;
  let unsupported = true;
  for (const chain of p.chains) {
    if (!chain?.length) continue;
    any = true;
    if (chain.some((r) => r.verdict !== 'unsupported')) unsupported = false;
    const v = sampleVerdictAt(chain, turn);
    if (v === 'excluded') continue;
    n++;
    if (v === 'passed') c++;
  }
  return { n, c, unsupported: any && unsupported };
}

function lineOf(k: number, problems: readonly ProblemSamples[], turn: number): PassAtKLine {
  let sum = 0;
  let counted = 0;
  let leftOut = 0;
  for (const p of problems) {
    const { n, c, unsupported } = countSamples(p, turn);
    if (unsupported) continue;
    if (n < k) {
      leftOut++;
      continue;
    }
    sum += passAtKEstimate(n, c, k);
    counted++;
  }
  return { k, value: counted ? sum / counted : NaN, problems: counted, leftOut };
}

/** Each counted problem's pass@k estimate (the values `passAtK` averages), for a bootstrap over problems. */
export function passAtKValues(results: readonly AttemptResult[], k: number, turn: number = lastTurn(results)): number[] {
  const values: number[] = [];
  for (const p of groupBySample(results)) {
    const { n, c, unsupported } = countSamples(p, turn);
    if (!unsupported && n >= k) values.push(passAtKEstimate(n, c, k));
  }
  return values;
}

function groupsOf<K extends string>(problems: readonly ProblemSamples[], key: (p: ProblemSamples) => K): Array<[K, ProblemSamples[]]> {
  const map = new Map<K, ProblemSamples[]>();
  for (const p of problems) {
    const list = map.get(key(p)) ?? [];
    list.push(p);
    map.set(key(p), list);
  }
  return [...map.entries()];
}

const DIFFICULTY_ORDER = ['easy', 'medium', 'hard'];
export function compareDifficulty(a: string, b: string): number {
  const ia = DIFFICULTY_ORDER.indexOf(a);
  const ib = DIFFICULTY_ORDER.indexOf(b);
  return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib) || a.localeCompare(b);
}

/**
 * pass@k overall (mean over problems), per language and per difficulty. Each sample's verdict is
 * taken at `turn` (default: the last turn present, so a sample counts as passed if any of its
 * turns passed).
 */
export function passAtK(results: readonly AttemptResult[], k: number, options: { turn?: number } = {}): PassAtK {
  const turn = options.turn ?? lastTurn(results);
  const problems = groupBySample(results);
  return {
    ...lineOf(k, problems, turn),
    perLanguage: groupsOf(problems, (p) => p.language)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([language, list]) => ({ language, ...lineOf(k, list, turn) })),
    perDifficulty: groupsOf(problems, (p) => p.difficulty)
      .sort(([a], [b]) => compareDifficulty(a, b))
      .map(([difficulty, list]) => ({ difficulty, ...lineOf(k, list, turn) })),
  };
}

/** The ks the CLI prints: 1, and each of 5 and 10 that is at most the number of samples. */
export function reportedKs(samples: number): number[] {
  return [1, 5, 10].filter((k) => k <= Math.max(1, samples));
}

/** The ks of the pass@k curve: 1 … samples. */
export function curveKs(samples: number): number[] {
  return Array.from({ length: Math.max(1, samples) }, (_, i) => i + 1);
}

export interface TurnLine {
  turn: number;
  /** Problems whose sample 0 passed at some turn ≤ `turn`. */
  passed: number;
  /** Problems whose sample 0 is decided at `turn` (not INFRA_ERROR or unsupported on the way). */
  total: number;
  /** passed / total; NaN when total is 0. */
  pass1: number;
}

function turnLines(problems: readonly ProblemSamples[], turns: number): TurnLine[] {
  return Array.from({ length: turns }, (_, i) => {
    const turn = i + 1;
    let passed = 0;
    let total = 0;
    for (const p of problems) {
      const chain = p.chains[0];
      if (!chain?.length) continue;
      const v = sampleVerdictAt(chain, turn);
      if (v === 'excluded') continue;
      total++;
      if (v === 'passed') passed++;
    }
    return { turn, passed, total, pass1: total ? passed / total : NaN };
  });
}

/** Pass@1 after each turn 1 … turns: the share of problems whose sample 0 passed at some turn ≤ t. */
export function pass1ByTurn(results: readonly AttemptResult[], turns: number): { overall: TurnLine[]; perLanguage: Array<{ language: LanguageId; turns: TurnLine[] }> } {
  const problems = groupBySample(results);
  return {
    overall: turnLines(problems, turns),
    perLanguage: groupsOf(problems, (p) => p.language)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([language, list]) => ({ language, turns: turnLines(list, turns) })),
  };
}

/** Sample 0, turn 1 of each problem: the official single-attempt figure (feed to `summarize`). */
export function firstAttempts(results: readonly AttemptResult[]): AttemptResult[] {
  return results.filter((r) => sampleOf(r) === 0 && turnOf(r) === 1);
}

const pct = (v: number) => (Number.isNaN(v) ? '–' : `${(v * 100).toFixed(1)}%`);

/** `pass@5: 79.2%` */
export function formatPassAtK(line: Pick<PassAtKLine, 'k' | 'value'>): string {
  return `pass@${line.k}: ${pct(line.value)}`;
}

/** `Pass@1 after turn 2: 58.3%` */
export function formatTurn(line: Pick<TurnLine, 'turn' | 'pass1'>): string {
  return `Pass@1 after turn ${line.turn}: ${pct(line.pass1)}`;
}

/**
 * The lines a run prints beyond the headline, in the CLI's order and the page's alike: each
 * pass@k, the problems each k left out, then Pass@1 after each turn. Empty lists print nothing.
 */
export function metricLines(passk: readonly PassAtK[], turns: readonly TurnLine[]): string[] {
  const lines = passk.map(formatPassAtK);
  for (const p of passk) if (p.leftOut) lines.push(`pass@${p.k}: ${p.leftOut} problem(s) with fewer than ${p.k} evaluated samples left out`);
  return [...lines, ...turns.map(formatTurn)];
}
