/**
 * The leaderboard of stored runs: one row per model (its fullest run on the chosen dataset with
 * the same mode and settings, the newest among equals), one column per language plus the overall
 * figure, the best value of each column marked among the rows computed on the same problems, and
 * each other such figure compared with the best on the problems both runs counted (exact McNemar
 * test): a difference not significant at 5% is a tie in all but name.
 * Built from the store alone (RunRecord + stored results), so it needs no dataset loaded.
 */
import type { LanguageId } from '../../contracts';
import { summarize, type ScoreLine } from '../../core/metrics';
import { firstAttempts } from '../../core/passk';
import type { AttemptResult } from '../../core/results';
import type { RunRecord } from '../../store/types';
import type { PairedDifference } from '../../core/stats';
import { pairedRuns } from './compare';

/** A cell: Pass@1 (NaN when nothing counted) and its counts. */
export type Score = Pick<ScoreLine, 'pass1' | 'passed' | 'total'>;

const score = (line: ScoreLine): Score => ({ pass1: line.pass1, passed: line.passed, total: line.total });

/**
 * Pass@1 of a run overall and per language: its first attempts (sample 0, turn 1), the same
 * figure as the run's headline and the CLI's last line, whatever its samples and turns.
 */
export function runScores(results: readonly AttemptResult[]): { overall: Score; perLanguage: Array<[LanguageId, Score]> } {
  const summary = summarize(firstAttempts(results));
  return { overall: score(summary), perLanguage: summary.perLanguage.filter((l) => l.total > 0).map((l) => [l.language, score(l)]) };
}

export interface LeaderboardRow {
  /** The run this row shows. */
  runId: string;
  modelId: string;
  modelLabel: string;
  mode: RunRecord['mode'];
  createdAt: number;
  /** Several samples or turns: what the row's Pass@1 is made of, for the label. */
  settings: string;
  overall: Score;
  perLanguage: Partial<Record<LanguageId, Score>>;
  /** Problems counted in the overall figure, and the languages with a figure. */
  problems: number;
  languages: LanguageId[];
  /** Per column, the problems its figure is computed on (sorted ids, joined): set by markProblemSets. */
  sets: Partial<Record<LeaderboardColumn, string>>;
  /** Per column with a figure: computed on the column's reference problems (the fullest set), so comparable. */
  comparable: Partial<Record<LeaderboardColumn, boolean>>;
  /** How the overall figure's problems relate to the fullest row's: the same, fewer of them, or others. */
  coverage: 'full' | 'subset' | 'different';
  /** Problems of the fullest row's overall figure. */
  referenceProblems: number;
}

/** A column: a language, or the overall figure. */
export type LeaderboardColumn = LanguageId | 'overall';

export interface Leaderboard {
  languages: LanguageId[];
  rows: LeaderboardRow[];
  /** Per column, the run ids holding the best Pass@1 (every one of them on a tie); none when no row has a figure. */
  best: Record<string, string[]>;
  /**
   * Per column and run id (rows not marked best): the paired difference of the best run (the
   * first of a tie) against this one on their shared problems, with the exact McNemar p-value.
   */
  versusBest: Record<string, Record<string, PairedDifference>>;
  /** Runs on this dataset left out because a fuller (or as full and newer) run of the same model and mode is shown. */
  older: number;
}

export interface StoredRunResults {
  run: RunRecord;
  results: readonly AttemptResult[];
}

/** Groups runs as the leaderboard picks them: the dataset they were made on. */
export const boardKey = (run: Pick<RunRecord, 'datasetName'>) => run.datasetName;

/** The datasets stored runs were made on, with how many runs each, most runs first. */
export function boardDatasets(runs: readonly RunRecord[]): Array<{ name: string; runs: number }> {
  const counts = new Map<string, number>();
  for (const r of runs) counts.set(boardKey(r), (counts.get(boardKey(r)) ?? 0) + 1);
  return [...counts.entries()].map(([name, n]) => ({ name, runs: n })).sort((a, b) => b.runs - a.runs || a.name.localeCompare(b.name));
}

function settingsText(run: RunRecord): string {
  const parts: string[] = [];
  const samples = run.samples ?? 1;
  const turns = run.turns ?? 1;
  if (samples > 1) parts.push(`n=${samples}`);
  if (turns > 1) parts.push(`${turns} turns`);
  if (run.completion) parts.push('completion');
  return parts.join(' · ');
}

/**
 * Builds the board of `runs` on `dataset`: the newest run of each (model, mode, settings) that
 * has results; `everyRun` keeps every run as its own row instead.
 */
export function buildLeaderboard(runs: readonly StoredRunResults[], dataset: string, everyRun = false): Leaderboard {
  const onDataset = runs.filter((r) => boardKey(r.run) === dataset && r.results.length > 0).sort((a, b) => b.run.createdAt - a.run.createdAt);
  const picked = everyRun ? onDataset : pickFullest(onDataset, (run) => JSON.stringify([run.modelId, run.mode, settingsText(run)]));
  const rows: LeaderboardRow[] = picked.map(({ run, results }) => {
    const scores = runScores(results);
    return {
      ...problemSets(results),
      runId: run.id,
      modelId: run.modelId,
      modelLabel: run.modelLabel,
      mode: run.mode,
      createdAt: run.createdAt,
      settings: settingsText(run),
      overall: scores.overall,
      perLanguage: Object.fromEntries(scores.perLanguage),
    };
  });
  const languages = [...new Set(rows.flatMap((r) => Object.keys(r.perLanguage) as LanguageId[]))].sort();
  markProblemSets(rows, ['overall', ...languages]);
  const best: Record<string, string[]> = {};
  const versusBest: Record<string, Record<string, PairedDifference>> = {};
  const firsts = new Map(picked.map(({ run, results }) => [run.id, firstAttempts(results)]));
  for (const column of ['overall', ...languages] as LeaderboardColumn[]) {
    // Like with like: only figures on the column's reference problems compete.
    const values = rows.filter((r) => r.comparable[column]).map((r) => ({ id: r.runId, v: cellOf(r, column)?.pass1 ?? NaN })).filter((x) => !Number.isNaN(x.v));
    if (!values.length) continue;
    const top = Math.max(...values.map((x) => x.v));
    // Ties are compared as shown (one decimal of a percentage).
    best[column] = values.filter((x) => Math.round(x.v * 1000) === Math.round(top * 1000)).map((x) => x.id);
    const leader = firsts.get(best[column]![0]!)!;
    versusBest[column] = Object.fromEntries(
      values.filter((x) => !best[column]!.includes(x.id)).map((x) => [x.id, pairedRuns(firsts.get(x.id)!, leader, column === 'overall' ? undefined : column)]),
    );
  }
  return { languages, rows, best, versusBest, older: onDataset.length - picked.length };
}

export function cellOf(row: LeaderboardRow, column: LeaderboardColumn): Score | undefined {
  return column === 'overall' ? row.overall : row.perLanguage[column];
}

/**
 * Rows sorted by a column: highest Pass@1 first (or lowest, `ascending`), rows without a figure
 * last; ties keep the model order. `column` null sorts by model name.
 */
export function sortRows(rows: readonly LeaderboardRow[], column: LeaderboardColumn | null, ascending = false): LeaderboardRow[] {
  const byName = (a: LeaderboardRow, b: LeaderboardRow) => a.modelLabel.localeCompare(b.modelLabel) || b.createdAt - a.createdAt;
  if (column === null) return [...rows].sort((a, b) => (ascending ? byName(a, b) : byName(b, a)));
  return [...rows].sort((a, b) => {
    const va = cellOf(a, column)?.pass1 ?? NaN;
    const vb = cellOf(b, column)?.pass1 ?? NaN;
    if (Number.isNaN(va) !== Number.isNaN(vb)) return Number.isNaN(va) ? 1 : -1;
    if (!Number.isNaN(va) && va !== vb) return ascending ? va - vb : vb - va;
    return byName(a, b);
  });
}

// ── like with like (issue #17): which problems each figure is computed on ─────────────────────

/** The problem fields of a row: what each figure counts (first attempts that passed or failed). */
function problemSets(results: readonly AttemptResult[]): Pick<LeaderboardRow, 'problems' | 'languages' | 'sets' | 'comparable' | 'coverage' | 'referenceProblems'> {
  const counted = firstAttempts(results).filter((r) => r.verdict === 'passed' || r.verdict === 'failed');
  const ids = new Map<LeaderboardColumn, string[]>([['overall', []]]);
  for (const r of counted) {
    ids.get('overall')!.push(r.id);
    ids.set(r.language, [...(ids.get(r.language) ?? []), r.id]);
  }
  const sets = Object.fromEntries([...ids].map(([column, list]) => [column, list.sort().join('\n')]));
  const languages = ([...ids.keys()].filter((c) => c !== 'overall') as LanguageId[]).sort();
  return { problems: counted.length, languages, sets, comparable: {}, coverage: 'full', referenceProblems: counted.length };
}

/**
 * The run of each key (model, mode, settings) with the most problems counted, the newest among
 * equals: a later run on a subset never stands in for a fuller one.
 */
function pickFullest(runs: readonly StoredRunResults[], keyOf: (run: RunRecord) => string): StoredRunResults[] {
  const size = (r: StoredRunResults) => firstAttempts(r.results).filter((x) => x.verdict === 'passed' || x.verdict === 'failed').length;
  const chosen = new Map<string, { entry: StoredRunResults; size: number }>();
  for (const entry of runs) {
    const key = keyOf(entry.run);
    const n = size(entry);
    const held = chosen.get(key);
    if (!held || n > held.size || (n === held.size && entry.run.createdAt > held.entry.run.createdAt)) chosen.set(key, { entry, size: n });
  }
  const kept = new Set([...chosen.values()].map((c) => c.entry));
  return runs.filter((r) => kept.has(r));
}

/**
 * Per column, the reference problems are the fullest row's (the set most rows share among equals);
 * a figure on other problems is marked not comparable, and each row says how its overall problems
 * relate to the reference: the same, a subset, or a different set.
 */
function markProblemSets(rows: LeaderboardRow[], columns: readonly LeaderboardColumn[]): void {
  for (const column of columns) {
    const tally = new Map<string, { size: number; rows: number }>();
    for (const row of rows) {
      const set = row.sets[column];
      if (!set) continue;
      const t = tally.get(set) ?? { size: set.split('\n').length, rows: 0 };
      t.rows++;
      tally.set(set, t);
    }
    const reference = [...tally].sort(([, a], [, b]) => b.size - a.size || b.rows - a.rows)[0]?.[0];
    for (const row of rows) if (row.sets[column]) row.comparable[column] = row.sets[column] === reference;
    if (column !== 'overall' || reference === undefined) continue;
    const all = new Set(reference.split('\n'));
    for (const row of rows) {
      row.referenceProblems = all.size;
      const own = row.sets.overall;
      row.coverage = own === reference ? 'full' : own !== undefined && own.split('\n').every((id) => all.has(id)) ? 'subset' : 'different';
    }
  }
}
