/**
 * The figures of a run beyond the headline Pass@1, computed by src/core only: the `pass@k: …`
 * lines, the `Pass@1 after turn t: …` lines (the same text as the CLI, from the same formatting
 * functions), and the chart data. Whether a (problem, sample) chain is over: src/core/chains.ts.
 */
import { chartData, type ChartData } from '../../charts/data';
import type { LanguageId } from '../../contracts';
import { metricLines as linesOf, pass1ByTurn, passAtK, reportedKs } from '../../core/passk';
import type { AttemptResult } from '../../core/results';
import type { SubsetPlan } from '../../core/sample';
import type { Interval } from '../../core/stats';
import { passAtKIntervals, uncertainty, uncertaintyLines } from '../../core/uncertainty';

export interface RunShape {
  samples: number;
  turns: number;
}

/**
 * The pass@k lines (and the problems each left out), then the per-turn lines, as the CLI prints
 * them for these settings (src/cli/report.ts): pass@k with each sample's verdict after the last turn.
 */
export function metricLines(results: readonly AttemptResult[], shape: RunShape): string[] {
  const passk = shape.samples > 1 ? reportedKs(shape.samples).map((k) => passAtK(results, k, { turn: shape.turns })) : [];
  return linesOf(passk, shape.turns > 1 ? pass1ByTurn(results, shape.turns).overall : []);
}

/**
 * The interval lines the CLI prints just before its headline (src/cli/main.ts): Pass@1's 95%
 * interval, a subset's full-benchmark estimate, and pass@k's bootstrap intervals.
 */
export function intervalLines(results: readonly AttemptResult[], shape: RunShape, plan?: SubsetPlan): string[] {
  return uncertaintyLines(uncertainty(results, { plan, ks: shape.samples > 1 ? reportedKs(shape.samples) : [], turn: shape.turns }), plan);
}

/** The four charts' data for a run. */
export function runChartData(results: readonly AttemptResult[], shape: RunShape, title: string): ChartData {
  return chartData(results, { title, samples: shape.samples, turns: shape.turns, passk: shape.samples > 1 });
}

/** An extra column of the per-language table: its header, a figure per language, and overall. */
export interface ExtraColumn {
  header: string;
  title: string;
  perLanguage: Map<LanguageId, number>;
  overall: number;
  /** pass@k's 95% bootstrap intervals (as the CLI's `pass@k CI` columns). */
  intervals?: { perLanguage: ReadonlyMap<LanguageId, Interval>; overall: Interval };
}

/**
 * The per-language table's columns beyond Pass@1, as in the CLI's table: Pass@1 after each turn
 * from the second, then pass@k for each printed k.
 */
export function languageColumns(results: readonly AttemptResult[], shape: RunShape): ExtraColumn[] {
  const columns: ExtraColumn[] = [];
  if (shape.turns > 1) {
    const byTurn = pass1ByTurn(results, shape.turns);
    for (const line of byTurn.overall.slice(1)) {
      columns.push({
        header: `turn ${line.turn}`,
        title: `Pass@1 after turn ${line.turn}: sample 0 passed at some turn ≤ ${line.turn}`,
        perLanguage: new Map(byTurn.perLanguage.map((l) => [l.language, l.turns.find((t) => t.turn === line.turn)?.pass1 ?? NaN])),
        overall: line.pass1,
      });
    }
  }
  if (shape.samples > 1) {
    for (const k of reportedKs(shape.samples)) {
      const p = passAtK(results, k, { turn: shape.turns });
      const ci = passAtKIntervals(results, k, shape.turns);
      columns.push({
        header: `pass@${k}`,
        title: `pass@${k} over ${shape.samples} samples per problem (unbiased estimator)`,
        perLanguage: new Map(p.perLanguage.map((l) => [l.language, l.value])),
        overall: p.value,
        intervals: { perLanguage: ci.perLanguage, overall: ci.overall },
      });
    }
  }
  return columns;
}
